import type { AdminShop } from './admin-grants.repository';
import type { LockState } from './admin-locks.repository';
import type { AdminUser } from './admin-users.repository';

export interface UserReport extends AdminUser {
  roles: string[];
  shops: string[];
  /** The service's sign-in failure bookkeeping; undefined when there is none. */
  lock?: LockState;
}

/** "locked until …", "3 failures since …" or "no failures". */
export function describeLock(lock: LockState | undefined, now = Date.now()): string {
  if (!lock) return 'no failures';
  if (lock.lockedUntil && Date.parse(lock.lockedUntil) > now) {
    return `LOCKED until ${lock.lockedUntil} (${lock.failures} consecutive failures)`;
  }
  const since = lock.firstFailureAt ? ` since ${lock.firstFailureAt}` : '';
  return `not locked (${lock.failures} recent failures${since})`;
}

export function formatUser(user: UserReport, now = Date.now()): string {
  const rows: Array<[string, string]> = [
    ['User', `${user.username} (id ${user.id})`],
    ['Name', user.displayName ?? '-'],
    ['E-mail', user.email ?? '-'],
    ['Enabled', user.enabled ? 'yes' : 'NO (sign-in refused)'],
    ['Roles', user.roles.join(', ') || '-'],
    ['Shops', user.shops.join(', ') || '-'],
    ['Sign-in', describeLock(user.lock, now)],
  ];
  return rows.map(([k, v]) => `${k.padEnd(8)} ${v}`).join('\n');
}

/** Aligned columns, two spaces apart; the last column unpadded. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '))
    .join('\n');
}

export function formatList(users: UserReport[], now = Date.now()): string {
  if (users.length === 0) return 'No users.';
  const rows = users.map((u) => [
    u.username,
    u.enabled ? 'yes' : 'no',
    String(u.shops.length),
    u.lock?.lockedUntil && Date.parse(u.lock.lockedUntil) > now ? 'yes' : 'no',
    u.roles.join(',') || '-',
  ]);
  return table(['USERNAME', 'ENABLED', 'SHOPS', 'LOCKED', 'ROLES'], rows);
}

/** list-shops: one shop a line, the users it is granted to last. */
export function formatShops(shops: AdminShop[]): string {
  if (shops.length === 0) return 'No shops.';
  const rows = shops.map((s) => [
    s.code,
    s.name,
    s.active ? 'yes' : 'no',
    s.timeZone,
    s.currency,
    s.users.join(',') || '-',
  ]);
  return table(['CODE', 'NAME', 'ACTIVE', 'TIME ZONE', 'CURRENCY', 'GRANTED TO'], rows);
}
