import { buildFingerprint, packageVersion } from '../../common/build-fingerprint';
import { loadConfig } from '../../config/load-config';
import { DigestCache } from './digest-cache';

describe(DigestCache.name, () => {
  it("should key the checksums on the package version, the code's hash and the tz data, BUILD_REVISION unset (issue 54)", () => {
    const cache = new DigestCache(loadConfig({ APP_ENV: 'development' }));
    expect(cache.release).toBe(buildFingerprint());
    expect(cache.release).toMatch(
      new RegExp(
        `^${packageVersion().replace(/\./g, '\\.')}-[0-9a-f]{16}-tz${process.versions.tz}$`,
      ),
    );
  });

  it('should put BUILD_REVISION first when it is set', () => {
    const cache = new DigestCache(loadConfig({ APP_ENV: 'development', BUILD_REVISION: 'abc123' }));
    expect(cache.release).toBe(`abc123-${buildFingerprint()}`);
  });
});
