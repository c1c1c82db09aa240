import type { DataSource, EntityManager } from 'typeorm';
import { AdminGrantsRepository } from './admin-grants.repository';
import { AdminLocksRepository } from './admin-locks.repository';
import { AdminRevocationsRepository } from './admin-revocations.repository';
import { AdminUsersRepository } from './admin-users.repository';

/**
 * The admin command's SQL over the back-office user tables and the service's failure table.
 * Unlike the service, this WRITES back-office tables: it is the administrators' tool for where
 * the back-office application is not at hand (development, tests, demos, support).
 * Usernames and role names match case-insensitively (the schema's collations); shop codes exactly.
 */
export class BackofficeAdminRepository {
  readonly users: AdminUsersRepository;
  readonly grants: AdminGrantsRepository;
  readonly locks: AdminLocksRepository;
  readonly revocations: AdminRevocationsRepository;

  constructor(db: DataSource | EntityManager) {
    this.users = new AdminUsersRepository(db);
    this.grants = new AdminGrantsRepository(db);
    this.locks = new AdminLocksRepository(db);
    this.revocations = new AdminRevocationsRepository(db);
  }
}
