import { apiPath } from '../config/api-prefix';
import { MAX_PAGE_LIMIT, TOKEN_LIFETIME_HOURS, TOKEN_RENEWAL_MINUTES } from '../config/limits';

/** `a`, `a and b`, `a, b and c`. */
const listed = (names: readonly string[]): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * The introduction of the document: what an integrator reads first in the portal. `lists` are
 * the cursor lists' last path segments, read from the document itself (openapi.document.ts), so
 * a resource the catalogue gains is named here without an edit.
 */
export const apiDescription = (lists: readonly string[]) =>
  `
Read-only business data of point-of-sale shops: sales with their lines, the payments of sales,
the cash movements of registers, and the transaction detail report.

## Authentication

1. \`POST ${apiPath('Token')}\` with the \`username\` and \`password\` of a back-office user who has
   the **ApiUser** role. The answer holds a JWT (\`token\`) valid ${TOKEN_LIFETIME_HOURS} hours (\`expiration\`, UTC).
2. Send it on every other call as \`Authorization: Bearer <token>\`: exactly the word \`Bearer\`,
   one space, the token. Anything else is a 401. A token is never accepted in the URL.
3. The token carries the shops the user may read (its \`shop_code\` claims, fixed when it is
   issued). Data is returned only for those shops; a shop outside them yields an empty result.

Request a token once and reuse it; renew it about ${TOKEN_RENEWAL_MINUTES} minutes before it expires. After a 401,
retry once with a fresh token, then stop: repeated failed sign-ins lock the username.
Use a dedicated integration user, keep the token out of URLs and app bundles.

The project's TypeScript client, \`@pos-read-api/client\` (\`packages/client/README.md\` in the
repository), and its \`pos-read\` command line tool follow these rules for you, with paging,
the report's limit and retries after a 503.

The security scheme is HTTP bearer (\`type: http, scheme: bearer\`), so generated clients send
the \`Bearer \` prefix themselves.

## Pagination

${listed(lists.map((name) => `\`${name}\``))} return \`{ "data": [...], "nextCursor": ... }\` with up
to ${MAX_PAGE_LIMIT} records, oldest first. Pass \`nextCursor\` unchanged as \`Cursor\` to read the
next page; it is \`null\` on the last page. Query parameter names match case-insensitively;
unknown or repeated parameters are a 400 that names them.

## Values

Date-times are shop-local and written without zone designator (\`2026-03-01T10:15:30.250\`);
\`From\` is inclusive, \`To\` exclusive. Money is a decimal string (\`"12.50"\`), never a float.
Ids are strings.

## Errors

Every error is \`application/problem+json\` (RFC 9457) with \`type\`, \`title\`, \`status\`,
\`detail\`, \`instance\`, \`requestId\` and, for validation, \`errors[]\`. Send \`X-Request-Id\`
to correlate; the service echoes it (or generates one) in the \`X-Request-Id\` response header.
429 and 503 carry \`Retry-After\`.
`.trim();
