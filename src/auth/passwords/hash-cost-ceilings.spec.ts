import { hash as bcryptHash } from 'bcrypt';
import { HASH_COST_CEILINGS, withinCostCeilings } from './hash-cost-ceilings';
import { encodeAspNetV3 } from './testing/aspnet-hash.fixture';

const ARGON2 = (params: string) =>
  `$argon2id$v=19$${params}$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA`;
const V3 = (iterations: number) =>
  encodeAspNetV3({ prf: 2, iterations, salt: Buffer.alloc(16, 1), subkey: Buffer.alloc(32, 2) });

describe(withinCostCeilings.name, () => {
  it('should accept argon2id up to 256 MiB, 10 passes and 16 lanes, and refuse one more of any', () => {
    expect(withinCostCeilings('argon2id', ARGON2('m=262144,t=10,p=16'))).toBe(true);
    expect(withinCostCeilings('argon2id', ARGON2('m=262145,t=2,p=1'))).toBe(false);
    expect(withinCostCeilings('argon2id', ARGON2('m=19456,t=11,p=1'))).toBe(false);
    expect(withinCostCeilings('argon2id', ARGON2('m=19456,t=2,p=17'))).toBe(false);
    expect(withinCostCeilings('argon2id', ARGON2('m=99999999999999,t=2,p=1'))).toBe(true);
  });

  it('should accept bcrypt up to cost 15 and refuse 16', async () => {
    const cost4 = await bcryptHash('x', 4);
    expect(withinCostCeilings('bcrypt', cost4.replace('$04$', '$15$'))).toBe(true);
    expect(withinCostCeilings('bcrypt', cost4.replace('$04$', '$16$'))).toBe(false);
  });

  it('should accept PBKDF2 (Identity v3) up to 2,000,000 iterations and refuse one more', () => {
    expect(HASH_COST_CEILINGS.pbkdf2Iterations).toBe(2_000_000);
    expect(withinCostCeilings('aspnet-v3', V3(2_000_000))).toBe(true);
    expect(withinCostCeilings('aspnet-v3', V3(2_000_001))).toBe(false);
  });

  it('should leave formats without a cost parameter (Identity v2, unknown) to their verifier', () => {
    expect(withinCostCeilings('aspnet-v2', 'AAAA')).toBe(true);
    expect(withinCostCeilings('unknown', 'whatever')).toBe(true);
    // Malformed argon2id parameters: the verifier refuses them without hashing.
    expect(withinCostCeilings('argon2id', '$argon2id$v=16$m=999999999$salt$hash')).toBe(true);
  });
});
