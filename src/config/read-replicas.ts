const MYSQL_URL = /^(mysql|mariadb):\/\/[^\s,]+$/;

/** DATABASE_READ_URLS split on commas, blanks dropped. */
export function splitReadUrls(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

/**
 * What is wrong with DATABASE_READ_URLS: replicas need a MySQL/MariaDB primary (the embedded
 * SQLite has none), and every entry must be a mysql:// URL. The URLs are never echoed: they hold
 * passwords.
 */
export function readReplicaProblems(
  databaseUrl: string | undefined,
  readUrls: string | undefined,
): string[] {
  const urls = splitReadUrls(readUrls);
  if (urls.length === 0) return [];
  const problems: string[] = [];
  if (!databaseUrl) {
    problems.push(
      'DATABASE_READ_URLS: needs DATABASE_URL (replicas of a MySQL/MariaDB primary; the embedded SQLite has none)',
    );
  }
  urls.forEach((url, index) => {
    if (!MYSQL_URL.test(url)) {
      problems.push(
        `DATABASE_READ_URLS: entry ${index + 1} must look like mysql://user:pass@host:3306/database`,
      );
    }
  });
  return problems;
}
