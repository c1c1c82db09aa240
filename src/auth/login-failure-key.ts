import { createHash } from 'node:crypto';

/** Width of api_login_failures.username_key. */
const KEY_LENGTH = 64;

/**
 * The failure-state key of a sign-in attempt. When the typed name finds a back-office user, the
 * key is that user (`user:<id>`): every spelling the back-office lookup resolves to the user
 * (its collation may ignore case, accents and trailing spaces) shares one failure budget.
 * Otherwise the key is the typed name folded roughly as that collation folds it (`name:<name>`),
 * so spellings of a name that does not exist share one budget too. The prefixes keep the two
 * apart: no typed name can reach a user's key.
 */
export function loginFailureKey(username: string, userId?: string): string {
  if (userId !== undefined) return `user:${userId}`;
  const folded = username
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ +$/, '');
  const key = `name:${folded}`;
  if (key.length <= KEY_LENGTH) return key;
  // A long name keeps a unique key of the column's width.
  return `name#${createHash('sha256').update(folded).digest('base64url')}`;
}
