import { scrubLogLine } from './log-scrubber';
import {
  SAMPLE_ARGON2 as ARGON2,
  SAMPLE_ASPNET_V2 as ASPNET_V2,
  SAMPLE_ASPNET_V3 as ASPNET_V3,
  SAMPLE_BCRYPT as BCRYPT,
  SAMPLE_JWT as JWT,
} from './testing/secret-samples.fixture';

describe(scrubLogLine.name, () => {
  it('should redact secret fields at any depth, whatever their case', () => {
    const line = JSON.stringify({
      req: { headers: { Authorization: 'Bearer x', cookie: 'a=b' } },
      err: { driverError: { password: 'p4ss', password_hash: 'h' } },
      body: { username: 'alice', Token: 't' },
    });
    const out = JSON.parse(scrubLogLine(line));
    expect(out.req.headers).toEqual({ Authorization: '[Redacted]', cookie: '[Redacted]' });
    expect(out.err.driverError).toEqual({ password: '[Redacted]', password_hash: '[Redacted]' });
    expect(out.body).toEqual({ username: 'alice', Token: '[Redacted]' });
  });

  it('should redact tokens, credentials and hashes inside messages and URLs', () => {
    const message = [
      `token ${JWT}`,
      'Authorization: Bearer abc.def',
      '/api/v1.0/sales?access_token=zzz&Limit=5',
      `hash ${ARGON2}`,
      `bcrypt ${BCRYPT}`,
      `v3 ${ASPNET_V3}`,
      `v2 ${ASPNET_V2}`,
      '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----',
    ].join(' | ');
    const out = JSON.parse(scrubLogLine(JSON.stringify({ msg: message }))).msg as string;
    for (const secret of [
      JWT,
      'abc.def',
      'zzz',
      ARGON2,
      'lMgU7e0zx8Op3TkmbdRIhw',
      BCRYPT,
      ASPNET_V3,
      ASPNET_V2,
      'MIGHAgEAMBMGByqGSM49',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('Limit=5');
    expect(out).toContain('[Redacted JWT]');
  });

  it('should leave ordinary lines unchanged and valid JSON', () => {
    const line = JSON.stringify({
      msg: 'GET 200',
      req: { url: '/api/v1.0/sales?ShopCode=S1' },
      durationMs: 3,
    });
    expect(scrubLogLine(line)).toBe(line);
  });

  it('should keep lines valid JSON when values hold escaped quotes', () => {
    const line = JSON.stringify({ password: 'a"b\\"c', next: 'kept' });
    expect(JSON.parse(scrubLogLine(line))).toEqual({ password: '[Redacted]', next: 'kept' });
  });
});
