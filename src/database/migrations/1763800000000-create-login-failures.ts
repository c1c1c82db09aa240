import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Consecutive failed logins per username (lower-cased, existing or not), shared by every
 * instance. Times are epoch milliseconds, so no time zone can creep in.
 */
export class CreateLoginFailures1763800000000 implements MigrationInterface {
  name = 'CreateLoginFailures1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'api_login_failures',
        columns: [
          { name: 'username_key', type: 'varchar', length: '64', isPrimary: true },
          { name: 'failure_count', type: 'int', isNullable: false, default: 0 },
          { name: 'first_failure_at_ms', type: 'bigint', isNullable: false },
          { name: 'locked_until_ms', type: 'bigint', isNullable: true },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_login_failures', true);
  }
}
