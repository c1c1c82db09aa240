import { crc32 } from 'node:zlib';
import type { DataSource } from 'typeorm';
import { PAYMENTS } from '../../../src/payments/payments.source';
import { DAY, recordValues } from './edits-behind-the-back';

/**
 * The forged edit of issue 57: the CRC-32 of `text` (UTF-8) brought back to `target` by choosing
 * the characters of `text.slice(at, at + width)`, each '0' or '1'. CRC-32 is affine over GF(2):
 * for strings of one length, crc(a ⊕ b) = crc(a) ⊕ crc(b) ⊕ crc(0…0), so flipping the low bit
 * of character i moves the CRC by a constant vector v_i whatever the rest, and a set S of flips
 * with ⊕ v_i (i in S) = target ⊕ crc(base) is a linear system of 32 equations, solved by
 * elimination (width ≥ 40 leaves it solvable but for a negligible chance). Microseconds, no
 * search: any free-text column of a row under a summed CRC fingerprint is this easy to forge.
 */
export function forgeCrc32(text: string, at: number, width: number, target: number): string {
  const base = Buffer.from(text, 'utf8');
  const start = Buffer.byteLength(text.slice(0, at), 'utf8');
  base.fill('0', start, start + width);
  const baseCrc = crc32(base);
  // The basis: pivot bit → [vector, the flips that make it].
  const basis = new Map<number, [number, bigint]>();
  for (let i = 0; i < width; i++) {
    base[start + i] ^= 1;
    let vector = (crc32(base) ^ baseCrc) >>> 0;
    base[start + i] ^= 1;
    let flips = 1n << BigInt(i);
    for (let bit = 31; bit >= 0 && vector !== 0; bit--) {
      if (((vector >>> bit) & 1) === 0) continue;
      const pivot = basis.get(bit);
      if (!pivot) {
        basis.set(bit, [vector, flips]);
        vector = 0;
        break;
      }
      vector = (vector ^ pivot[0]) >>> 0;
      flips ^= pivot[1];
    }
  }
  let want = (target ^ baseCrc) >>> 0;
  let chosen = 0n;
  for (let bit = 31; bit >= 0 && want !== 0; bit--) {
    if (((want >>> bit) & 1) === 0) continue;
    const pivot = basis.get(bit);
    if (!pivot) throw new Error('forgeCrc32: no solution over these characters');
    want = (want ^ pivot[0]) >>> 0;
    chosen ^= pivot[1];
  }
  for (let i = 0; i < width; i++) if ((chosen >> BigInt(i)) & 1n) base[start + i] ^= 1;
  return base.toString('utf8');
}

/** The CRC-32 of a string's UTF-8 bytes, as MySQL's CRC32 and the old SQLite function gave it. */
export const crcOf = (text: string): number => crc32(text);

/**
 * Each payment row of `shop` on DATE as the CRC fingerprint (issue 45, replaced in issue 57)
 * hashed it: every column the record is made of, derived ones included, QUOTEd and joined by
 * commas, as the database writes them.
 */
export async function crcRowTexts(db: DataSource, shop: string): Promise<Map<string, string>> {
  const text = recordValues(PAYMENTS)
    .map((value) => `QUOTE(${value})`)
    .join(', ');
  const rows = await db.query<Array<{ id: string | number; s: string }>>(
    `SELECT x.id AS id, CONCAT_WS(',', ${text}) AS s FROM pos_payments x ` +
      'WHERE x.shop_code = ? AND x.paid_at >= ? AND x.paid_at < ? ORDER BY x.id',
    [shop, DAY.from, DAY.to],
  );
  return new Map(rows.map((row) => [String(row.id), row.s]));
}

/** The old fingerprint of a date: the count and the sum of its rows' CRC-32s. */
export const crcFingerprint = (texts: Map<string, string>): string =>
  `${texts.size}:${[...texts.values()].reduce((sum, text) => sum + crcOf(text), 0)}`;
