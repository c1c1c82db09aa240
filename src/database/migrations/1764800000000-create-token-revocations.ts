import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Emergency revocations of issued tokens (`npm run backoffice -- revoke-tokens`): a row revokes
 * either one token (`jti`) or every token of a user (`user_id`, the token's `sub`) issued at or
 * before `issued_before_s` (epoch seconds). Read by every instance every few seconds
 * (TOKEN_REVOCATION_REFRESH_MS); never written by the service itself.
 */
export class CreateTokenRevocations1764800000000 implements MigrationInterface {
  name = 'CreateTokenRevocations1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'api_token_revocations',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'user_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'jti', type: 'varchar', length: '64', isNullable: true },
          { name: 'issued_before_s', type: 'bigint', isNullable: true },
          { name: 'revoked_at_ms', type: 'bigint', isNullable: false },
        ],
      }),
      true,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_token_revocations', true);
  }
}
