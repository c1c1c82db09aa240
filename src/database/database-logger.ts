import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

const SQL_EXCERPT = 300;

function excerpt(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > SQL_EXCERPT ? `${flat.slice(0, SQL_EXCERPT)}…` : flat;
}

/**
 * TypeORM's log goes to the service's logger (JSON lines), never to the console, and never with
 * query parameters: they may hold user names or, in the admin command, password hashes.
 * Slow queries (over the query timeout) are warnings; failed queries are not logged here, because
 * the error filter already logs the request that failed. Otherwise as quiet as `logging: false`.
 */
export class DatabaseLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {
    // Every query would be noise; slow ones are logged below.
  }

  logQueryError(): void {
    // The error reaches its caller; the error filter logs the request that failed.
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`Slow query (${time} ms): ${excerpt(query)}`);
  }

  logSchemaBuild(): void {
    // Migration bookkeeping lines stay out, as with `logging: false`.
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    // TypeORM's own info lines ("N migrations are new...") stay out, as with `logging: false`.
    if (level === 'warn') this.logger.warn(typeof message === 'string' ? message : String(message));
  }
}
