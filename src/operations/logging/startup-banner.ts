/** What the banner tells someone who just ran `npm start`. */
export interface BannerFacts {
  /** http://localhost:3000 */
  baseUrl: string;
  managementPort: number;
  appEnv: string;
  /** What is running (build-info.ts). */
  build: { version: string; revision: string; node: string };
  /** The embedded database's folder, when the service runs on it. */
  embeddedDataDir?: string;
  demoUsers: ReadonlyArray<{ username: string; password: string; note: string }>;
}

const RULE = '─'.repeat(72);

/**
 * The start-up banner of pretty (development) logs, written after the last log line so that it
 * stands out at the end: where the API and the portal are, the demo users, one curl to try.
 */
export function startupBanner(facts: BannerFacts): string {
  const { baseUrl, demoUsers } = facts;
  const lines = [
    '',
    RULE,
    `  POS read API is ready  (APP_ENV=${facts.appEnv})`,
    '',
    `  API        ${baseUrl}/api/v1.0`,
    `  Portal     ${baseUrl}/docs`,
    `  Health     http://localhost:${facts.managementPort}/health/ready  (and /metrics)`,
    `  Version    ${facts.build.version}  (revision ${facts.build.revision}, Node ${facts.build.node})`,
  ];
  if (facts.embeddedDataDir) {
    lines.push(`  Database   embedded SQLite in ${facts.embeddedDataDir} (DATABASE_URL for MySQL)`);
  }
  if (demoUsers.length > 0) {
    const width = Math.max(...demoUsers.map((u) => `${u.username} / ${u.password}`.length));
    lines.push('', '  Demo users');
    for (const user of demoUsers) {
      lines.push(`    ${`${user.username} / ${user.password}`.padEnd(width)}   ${user.note}`);
    }
    const [first] = demoUsers;
    lines.push(
      '',
      '  Try',
      `    curl -s -X POST ${baseUrl}/api/v1.0/Token -H 'Content-Type: application/json' \\`,
      `      -d '{"username":"${first.username}","password":"${first.password}"}'`,
    );
  }
  lines.push(RULE, '');
  return lines.join('\n');
}
