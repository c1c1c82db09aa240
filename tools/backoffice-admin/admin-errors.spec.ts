import { missingGrant } from './admin-errors';

describe(missingGrant.name, () => {
  it.each([
    [
      "INSERT command denied to user 'pos_api'@'localhost' for table `backoffice`.`bo_users`",
      'INSERT on bo_users (MySQL error 1142, ER_TABLEACCESS_DENIED_ERROR)',
    ],
    [
      "SELECT command denied to user 'pos_api_migrate'@'%' for table 'bo_users'",
      'SELECT on bo_users (MySQL error 1142, ER_TABLEACCESS_DENIED_ERROR)',
    ],
    ['something else', 'a grant (MySQL error 1142, ER_TABLEACCESS_DENIED_ERROR)'],
  ])('should name the privilege and the table of %p', (sqlMessage, grant) => {
    expect(missingGrant({ errno: 1142, sqlMessage })).toBe(grant);
  });

  it('should name a denied column command too', () => {
    expect(
      missingGrant({
        errno: 1143,
        sqlMessage: "UPDATE command denied to user 'a'@'b' for table `db`.`bo_users`",
      }),
    ).toBe('UPDATE on bo_users (MySQL error 1143, ER_COLUMNACCESS_DENIED_ERROR)');
  });

  it("should name the column of MariaDB's column message", () => {
    expect(
      missingGrant({
        errno: 1143,
        sqlMessage:
          "SELECT command denied to user 'a'@'b' for column 'password_hash' in table 'bo_users'",
      }),
    ).toBe(
      'SELECT on bo_users (column password_hash) (MySQL error 1143, ER_COLUMNACCESS_DENIED_ERROR)',
    );
  });

  it.each([[{ errno: 1146, sqlMessage: "Table 'x' doesn't exist" }], [new Error('x')], [null]])(
    'should say nothing of another error (%p)',
    (error) => {
      expect(missingGrant(error)).toBeUndefined();
    },
  );
});
