import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The binary log's watermarks (issue 57, sync/changes/binlog-follower.ts): one row per instance
 * (`server-<server_id>`), whose `token` the instance overwrites with a random value and then
 * waits for the reader (its own, or the deployment's) to read in the log: every transaction
 * committed before it has then been read. Written only by the account of
 * sql/binlog-account.sql, and only with BINLOG_DATABASE_URL set.
 */
export class CreateChangeWatermarks1765000000000 implements MigrationInterface {
  name = 'CreateChangeWatermarks1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'api_change_watermarks',
        columns: [
          { name: 'reader', type: 'varchar', length: '32', isPrimary: true },
          { name: 'token', type: 'varchar', length: '32', isNullable: false },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_change_watermarks', true);
  }
}
