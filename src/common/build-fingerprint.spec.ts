import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../config/load-config';
import { buildFingerprint, codeHash, packageVersion } from './build-fingerprint';
import { DigestCache } from './pagination/digest-cache';

describe(codeHash.name, () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'code-hash-'));
    mkdirSync(path.join(root, 'sales'));
    writeFileSync(path.join(root, 'sales', 'sale.record.js'), 'exports.f = (r) => ({ id: r.id });');
    writeFileSync(path.join(root, 'main.js'), 'require("./sales/sale.record")');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('should change when the code that maps a record changes, and only with the code', () => {
    const before = codeHash(root);
    expect(codeHash(root)).toBe(before);
    writeFileSync(path.join(root, 'sales', 'sale.record.spec.js'), 'test("x", () => 1)');
    writeFileSync(path.join(root, 'README.md'), 'notes');
    expect(codeHash(root)).toBe(before);
    writeFileSync(
      path.join(root, 'sales', 'sale.record.js'),
      'exports.f = (r) => ({ id: r.id, total: r.total });',
    );
    expect(codeHash(root)).not.toBe(before);
  });
});

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
