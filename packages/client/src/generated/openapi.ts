/**
 * Generated from docs/openapi.json by packages/client/scripts/generate-types.mjs
 * (openapi-typescript). Do not edit: run `npm run generate -w @pos-read-api/client`.
 */

export interface paths {
    "/api/v1.0/Token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a token
         * @description Exchanges the username and password of a back-office user with the ApiUser role for a JWT valid 48 hours. Send it as `Authorization: Bearer <token>` to every other operation. The most expensive operation: request a token once and reuse it until shortly before `expiration` (renew about 5 minutes before), never per call. There is no refresh; after a 401 retry once with a fresh token, then stop: repeated failures lock the username.
         */
        post: operations["issueToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/shops": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the shops the token may read
         * @description The shops of the token `shop_code` claims, with the time zone their local date-times are in and their currency. A shop granted after the token was issued appears only in a new token.
         */
        get: operations["listShops"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/sales": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sales with their lines
         * @description Sales and returns of the shops in the token claims, each with its lines, by `soldAt`.
         *
         *     Pages hold up to 500 records (Limit), ordered by shop-local date-time, then id. Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. With BusinessDateFrom and BusinessDateTo instead of From and To: exactly the records whose `businessDate` is in the range, in the same order; such a page may hold fewer records than Limit (even none) while nextCursor is not null. A shop outside the token claims gives an empty page, never an error.
         */
        get: operations["listSales"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/sales/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sales with their lines in the order they reached the back office
         * @description Sales and returns of the shops in the token claims, each with its lines, in arrival order: a sale rung up offline and uploaded days later comes after the sales that arrived before it, whatever its `soldAt`. From selects the sales that arrived since then (`created_at`).
         *
         *     Pages hold up to 500 records (Limit), in the order they reached the back office (their id), whatever their business date-time: a register that uploads a day late still shows up here. Every committed record is delivered once, none is skipped. Store `nextCursor` after each page; read on while `caughtUp` is false, then poll again later with the stored cursor. A change made later to a record already delivered (a sale voided) does not bring it back: see docs/sync.md. A shop outside the token claims gives an empty page, never an error.
         */
        get: operations["salesFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/sales/digest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A count and a checksum for each date of the sales (dated by `soldAt`)
         * @description For each shop-local date from From to To (at most 92 days), the number of sales (dated by `soldAt`) of that date and a checksum over them exactly as GET /api/v1.0/sales returns them. Compare with the same computed on your copy: a date whose checksum differs (an edit, a void, an insert or a delete) is re-read exactly by the list with `From=<date>`, `To=<next date>`; the others are equal. The checksum rule: docs/sync.md. The fields a checksum covers are those of the digest version the answer names (`Version`, the newest when absent; docs/sync.md, "Digest versions"): a copy verifies with the version it was built on. With BusinessDateFrom and BusinessDateTo instead, one entry per business date, over the records whose `businessDate` it is (re-read by the list with the same parameters; computed at each request). A shop outside the token claims gives `{"version": …, "data": []}`.
         */
        get: operations["salesDigest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/sales/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every sale of one shop and period, in one stream
         * @description The sales of one shop from From to To, or of the business dates BusinessDateFrom to BusinessDateTo (at most 1096 days either way), in one response, for a first copy of history: NDJSON (`application/x-ndjson`), one JSON object a line, in the order of GET /api/v1.0/sales and each record exactly as it returns it. It streams (compressed when Accept-Encoding asks), at the pace the client reads. The first line (`start`) gives the resource's feed cursor taken before the read: the feed from it delivers whatever commits meanwhile. A `checkpoint` line after every 1000 records carries the cursor that resumes after them. The last line is `end` (the count and SHA-256 of the record lines sent) or `error`; a stream without either was cut: resume from the last checkpoint. A shop outside the token claims gives a stream without records. Under the expensive reads' fair share: a turn and a call, as a digest; its rows are not counted in DIGEST_ROWS_PER_MINUTE (docs/sync.md, "The bulk read").
         */
        get: operations["salesBulk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments of sales
         * @description Payments of the sales of the shops in the token claims, by `paidAt`; refunds are negative.
         *
         *     Pages hold up to 500 records (Limit), ordered by shop-local date-time, then id. Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. With BusinessDateFrom and BusinessDateTo instead of From and To: exactly the records whose `businessDate` is in the range, in the same order; such a page may hold fewer records than Limit (even none) while nextCursor is not null. A shop outside the token claims gives an empty page, never an error.
         */
        get: operations["listPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/payments/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Payments in the order they reached the back office
         * @description Payments of the sales of the shops in the token claims, in arrival order (their id), whatever their `paidAt`. The back office records no arrival time for a payment, so this feed takes no From: its first call starts at the first payment.
         *
         *     Pages hold up to 500 records (Limit), in the order they reached the back office (their id), whatever their business date-time: a register that uploads a day late still shows up here. Every committed record is delivered once, none is skipped. Store `nextCursor` after each page; read on while `caughtUp` is false, then poll again later with the stored cursor. A change made later to a record already delivered (a sale voided) does not bring it back: see docs/sync.md. A shop outside the token claims gives an empty page, never an error.
         */
        get: operations["paymentsFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/payments/digest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A count and a checksum for each date of the payments (dated by `paidAt`)
         * @description For each shop-local date from From to To (at most 92 days), the number of payments (dated by `paidAt`) of that date and a checksum over them exactly as GET /api/v1.0/payments returns them. Compare with the same computed on your copy: a date whose checksum differs (an edit, a void, an insert or a delete) is re-read exactly by the list with `From=<date>`, `To=<next date>`; the others are equal. The checksum rule: docs/sync.md. The fields a checksum covers are those of the digest version the answer names (`Version`, the newest when absent; docs/sync.md, "Digest versions"): a copy verifies with the version it was built on. With BusinessDateFrom and BusinessDateTo instead, one entry per business date, over the records whose `businessDate` it is (re-read by the list with the same parameters; computed at each request). A shop outside the token claims gives `{"version": …, "data": []}`.
         */
        get: operations["paymentsDigest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/payments/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every payment of one shop and period, in one stream
         * @description The payments of one shop from From to To, or of the business dates BusinessDateFrom to BusinessDateTo (at most 1096 days either way), in one response, for a first copy of history: NDJSON (`application/x-ndjson`), one JSON object a line, in the order of GET /api/v1.0/payments and each record exactly as it returns it. It streams (compressed when Accept-Encoding asks), at the pace the client reads. The first line (`start`) gives the resource's feed cursor taken before the read: the feed from it delivers whatever commits meanwhile. A `checkpoint` line after every 1000 records carries the cursor that resumes after them. The last line is `end` (the count and SHA-256 of the record lines sent) or `error`; a stream without either was cut: resume from the last checkpoint. A shop outside the token claims gives a stream without records. Under the expensive reads' fair share: a turn and a call, as a digest; its rows are not counted in DIGEST_ROWS_PER_MINUTE (docs/sync.md, "The bulk read").
         */
        get: operations["paymentsBulk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/cash-movements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List register cash movements
         * @description Movements of the cash drawers of the registers of the shops in the token claims, by `movedAt`: opening floats, cash sales and refunds, cash in and out, closing counts.
         *
         *     Pages hold up to 500 records (Limit), ordered by shop-local date-time, then id. Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. With BusinessDateFrom and BusinessDateTo instead of From and To: exactly the records whose `businessDate` is in the range, in the same order; such a page may hold fewer records than Limit (even none) while nextCursor is not null. A shop outside the token claims gives an empty page, never an error.
         */
        get: operations["listCashMovements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/cash-movements/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Register cash movements in the order they reached the back office
         * @description Movements of the cash drawers of the registers of the shops in the token claims, in arrival order (their id), whatever their `movedAt`. The back office records no arrival time for a movement, so this feed takes no From: its first call starts at the first movement.
         *
         *     Pages hold up to 500 records (Limit), in the order they reached the back office (their id), whatever their business date-time: a register that uploads a day late still shows up here. Every committed record is delivered once, none is skipped. Store `nextCursor` after each page; read on while `caughtUp` is false, then poll again later with the stored cursor. A change made later to a record already delivered (a sale voided) does not bring it back: see docs/sync.md. A shop outside the token claims gives an empty page, never an error.
         */
        get: operations["cashMovementsFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/cash-movements/digest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A count and a checksum for each date of the cash movements (dated by `movedAt`)
         * @description For each shop-local date from From to To (at most 92 days), the number of cash movements (dated by `movedAt`) of that date and a checksum over them exactly as GET /api/v1.0/cash-movements returns them. Compare with the same computed on your copy: a date whose checksum differs (an edit, a void, an insert or a delete) is re-read exactly by the list with `From=<date>`, `To=<next date>`; the others are equal. The checksum rule: docs/sync.md. The fields a checksum covers are those of the digest version the answer names (`Version`, the newest when absent; docs/sync.md, "Digest versions"): a copy verifies with the version it was built on. With BusinessDateFrom and BusinessDateTo instead, one entry per business date, over the records whose `businessDate` it is (re-read by the list with the same parameters; computed at each request). A shop outside the token claims gives `{"version": …, "data": []}`.
         */
        get: operations["cashMovementsDigest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/cash-movements/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every cash movement of one shop and period, in one stream
         * @description The cash movements of one shop from From to To, or of the business dates BusinessDateFrom to BusinessDateTo (at most 1096 days either way), in one response, for a first copy of history: NDJSON (`application/x-ndjson`), one JSON object a line, in the order of GET /api/v1.0/cash-movements and each record exactly as it returns it. It streams (compressed when Accept-Encoding asks), at the pace the client reads. The first line (`start`) gives the resource's feed cursor taken before the read: the feed from it delivers whatever commits meanwhile. A `checkpoint` line after every 1000 records carries the cursor that resumes after them. The last line is `end` (the count and SHA-256 of the record lines sent) or `error`; a stream without either was cut: resume from the last checkpoint. A shop outside the token claims gives a stream without records. Under the expensive reads' fair share: a turn and a call, as a digest; its rows are not counted in DIGEST_ROWS_PER_MINUTE (docs/sync.md, "The bulk read").
         */
        get: operations["cashMovementsBulk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/cash-drawer-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List cash drawer sessions
         * @description The drawer sessions of the registers of the shops in the token claims, by `openedAt` (From and To select the opening time; BusinessDateFrom and BusinessDateTo its date): each from its opening float to its closing count, with the cash it expected, the cash counted and the difference. A session is made of its register's cash movements in (`movedAt`, `id`) order: an OPENING_FLOAT opens it, and it holds every later movement of that register up to and including the next CLOSING_COUNT; an OPENING_FLOAT while a session is open starts a new one and the earlier one stays `OPEN` (never counted). An open session changes when it is counted: read it again (by its opening time) until its status is `CLOSED`. No feed and no digest.
         *
         *     Pages hold up to 500 records (Limit), ordered by shop-local date-time, then id. Read the next page by passing `nextCursor` as Cursor, until `nextCursor` is null. With BusinessDateFrom and BusinessDateTo instead of From and To: exactly the records whose `businessDate` is in the range, in the same order; such a page may hold fewer records than Limit (even none) while nextCursor is not null. A shop outside the token claims gives an empty page, never an error.
         */
        get: operations["listCashDrawerSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/cash-drawer-sessions/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every cash drawer session of one shop and period, in one stream
         * @description The cash drawer sessions of one shop from From to To, or of the business dates BusinessDateFrom to BusinessDateTo (at most 1096 days either way), in one response, for a first copy of history: NDJSON (`application/x-ndjson`), one JSON object a line, in the order of GET /api/v1.0/cash-drawer-sessions and each record exactly as it returns it. It streams (compressed when Accept-Encoding asks), at the pace the client reads. The first line (`start`) gives the resource's feed cursor taken before the read: the feed from it delivers whatever commits meanwhile. A `checkpoint` line after every 1000 records carries the cursor that resumes after them. The last line is `end` (the count and SHA-256 of the record lines sent) or `error`; a stream without either was cut: resume from the last checkpoint. A shop outside the token claims gives a stream without records. Under the expensive reads' fair share: a turn and a call, as a digest; its rows are not counted in DIGEST_ROWS_PER_MINUTE (docs/sync.md, "The bulk read").
         */
        get: operations["cashDrawerSessionsBulk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/TransactionDetailReport": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Transaction detail report
         * @description One row per sale line of the shops in the token claims for a period of at most 31 days, with each sale's header fields and payment methods, and totals. JSON by default; CSV (RFC 4180, the same columns, without totals) when the Accept header prefers `text/csv`. The response streams, whatever the period. Limited to 12 calls a minute per user, across all instances; the cursor endpoints are not under this limit.
         */
        get: operations["getTransactionDetailReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1.0/business-days": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The day close: one entry per business date, with its totals and digests
         * @description For each business date from From to To (at most 92 days; From inclusive, To exclusive), empty days included: the counts and sums of its sales, its payments by method, its drawer sessions summed, and a count and a checksum of its sales, payments and cash movements. Every figure is a sum over the records the list endpoints return with that `businessDate` (the trading day: a bar's night after midnight belongs to the day it started), and every digest is the digests' checksum (docs/sync.md) over exactly those records: re-read a day whose digest differs from your copy's. The rules of the figures: docs/database.md, "The day close". An expensive read, in the digests' fair share (429 and 503 below). A shop outside the token claims gives `{"version": …, "data": []}`.
         */
        get: operations["listBusinessDays"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Credentials of a back-office user. */
        TokenRequest: {
            /**
             * @description Username of the back-office application user.
             * @example erp-integration
             */
            username: string;
            /**
             * Format: password
             * @description Password of that user.
             * @example correct-horse-battery-staple
             */
            password: string;
        };
        /** @description A token valid for 48 hours. */
        TokenResponse: {
            /**
             * @description JWT to send as `Authorization: Bearer <token>`.
             * @example eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl
             */
            token: string;
            /**
             * Format: date-time
             * @description When the token stops being valid: ISO 8601, UTC (with Z), issue + 48 hours.
             * @example 2026-03-03T09:30:00.000Z
             */
            expiration: string;
        };
        /** @description A shop the token may read. */
        Shop: {
            /**
             * @description Code of the shop (the ShopCode of the query parameters).
             * @example SHOP001
             */
            code: string;
            /**
             * @description Name of the shop.
             * @example Mercado Sol Centro
             */
            name: string;
            /**
             * @description IANA time zone of the shop: the zone its local date-times are in.
             * @example Europe/Madrid
             */
            timeZone: string;
            /**
             * @description ISO 4217 currency code.
             * @example EUR
             */
            currency: string;
        };
        /** @description The shops of the token claims, in code order. */
        ShopList: {
            data: components["schemas"]["Shop"][];
        };
        /** @description One line of a sale, in line number order. */
        SaleLine: {
            /** @description Line number within the sale. */
            lineNo: number;
            /** @description Item code (EAN or internal code). */
            itemCode: string;
            /** @description Item description as printed on the receipt. */
            description: string;
            /**
             * Format: decimal
             * @description Quantity; negative on returns. Decimal string with 4 decimals.
             */
            quantity: string;
            /**
             * Format: decimal
             * @description Unit price. Decimal string with 4 decimals.
             */
            unitPrice: string;
            /**
             * Format: decimal
             * @description Discount of the line. Decimal string with 2 decimals.
             */
            discount: string;
            /**
             * Format: decimal
             * @description Tax rate in percent (21.00 is 21 %). Decimal string with 2 decimals.
             */
            taxRate: string;
            /**
             * Format: decimal
             * @description Net amount of the line. Decimal string with 2 decimals.
             */
            net: string;
            /**
             * Format: decimal
             * @description Tax amount of the line. Decimal string with 2 decimals.
             */
            tax: string;
            /**
             * Format: decimal
             * @description Gross amount of the line (net + tax). Decimal string with 2 decimals.
             */
            gross: string;
        };
        /** @description A sale (or a return) with its lines. */
        Sale: {
            /** @description Identifier (an unsigned 64-bit integer, written as a string). */
            id: string;
            /**
             * @description Code of the shop (the ShopCode of the query parameters).
             * @example SHOP001
             */
            shopCode: string;
            /**
             * @description Code of the register within its shop.
             * @example R1
             */
            registerCode: string;
            /** @description Ticket number as printed on the receipt. */
            ticketNumber: string;
            /**
             * @description Kind of ticket. Known values: SALE, RETURN (more may be added).
             * @example SALE
             */
            kind: string;
            /**
             * @description Status of the ticket. Known values: COMPLETED, VOIDED (more may be added).
             * @example COMPLETED
             */
            status: string;
            /**
             * Format: date
             * @description Trading day the ticket belongs to (YYYY-MM-DD).
             */
            businessDate: string;
            /** @description When the sale happened, shop-local time. */
            soldAt: string;
            /**
             * Format: date-time
             * @description The instant of `soldAt` in UTC (RFC 3339, milliseconds), from the shop's IANA zone. A local time in a spring-forward gap is read with the offset before the change (it lands after the gap); one in a fall-back overlap is the earlier instant. Null when the shop has no zone the service knows.
             * @example 2026-03-01T09:15:30.250Z
             */
            soldAtUtc: string | null;
            /**
             * @description ISO 4217 currency code.
             * @example EUR
             */
            currency: string;
            /**
             * Format: decimal
             * @description Total net amount. Decimal string with 2 decimals.
             */
            totalNet: string;
            /**
             * Format: decimal
             * @description Total tax amount. Decimal string with 2 decimals.
             */
            totalTax: string;
            /**
             * Format: decimal
             * @description Total discount. Decimal string with 2 decimals.
             */
            totalDiscount: string;
            /**
             * Format: decimal
             * @description Total gross amount (what the customer paid). Decimal string with 2 decimals.
             */
            totalGross: string;
            /** @description Code of the employee who rang the sale. */
            employeeCode: string | null;
            /** @description Code of the customer, when known. */
            customerCode: string | null;
            /** @description For a RETURN, the id of the sale it refers to; otherwise null. */
            originalSaleId: string | null;
            /** @description The lines of the sale. */
            lines: components["schemas"]["SaleLine"][];
        };
        /** @description A page of sales. */
        SalesPage: {
            /** @description The records of the page, oldest first (at most Limit, at most 500). */
            data: components["schemas"]["Sale"][];
            /** @description Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page. */
            nextCursor: string | null;
        };
        /** @description A page of the feed of sales. */
        SalesFeedPage: {
            /** @description The records of the page in arrival order (at most Limit, at most 500). */
            data: components["schemas"]["Sale"][];
            /** @description Opaque cursor of where the feed resumes: store it, and pass it as Cursor, unchanged, on the next call. Never null: a caught-up feed resumes from it when new records arrive. */
            nextCursor: string;
            /** @description true: nothing more can be read now (the end of what is committed, or a record still being written); poll again later with nextCursor. false: read the next page now. */
            caughtUp: boolean;
        };
        /** @description One date of a digest: its records' count and checksum. */
        DayDigest: {
            /**
             * Format: date
             * @example 2026-03-01
             */
            date: string;
            /**
             * @description Records of that date.
             * @example 731
             */
            count: number;
            /**
             * @description Lowercase hex SHA-256 over the records of that date in ascending numeric `id` order, each as its RFC 8785 (JCS) canonical JSON followed by one `\n`; the record is exactly the object the list endpoint returns. A date without records: SHA-256 of the empty string.
             * @example e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
             */
            checksum: string;
        };
        /** @description The digest version its checksums follow, then one entry per date of the period. */
        Digest: {
            /**
             * @description The digest version: which fields of each record the checksums cover (docs/sync.md, "Digest versions"); the Version asked for, else the newest.
             * @example 2
             * @enum {number}
             */
            version: 1 | 2;
            /** @description Every date from From (inclusive) to To (exclusive), empty ones included; empty when the shop is outside the token claims. */
            data: components["schemas"]["DayDigest"][];
        };
        /** @description A bulk read's first line: what it holds, and where the feed stood before it. */
        BulkStartLine: {
            /** @enum {string} */
            type: "start";
            /** @example sales */
            resource: string;
            /** @example SHOP001 */
            shopCode: string;
            /**
             * @description The period asked (From); null when business dates were asked instead.
             * @example 2026-01-01T00:00:00.000
             */
            from: string | null;
            /** @example 2027-01-01T00:00:00.000 */
            to: string | null;
            /**
             * @description The business dates asked (BusinessDateFrom); null when a period was asked.
             * @example null
             */
            businessDateFrom: string | null;
            /** @example null */
            businessDateTo: string | null;
            /** @description The resource's feed cursor at where the feed stood before the stream's first read: follow the feed from it (`GET /<resource>/feed?Cursor=…`) and every record committed since arrives there, late uploads included. null for a resource without a feed, and on a resumed read (keep the first one). */
            feedCursor: string | null;
        };
        /** @description One record, exactly as the list returns it. */
        SalesBulkRecordLine: {
            /** @enum {string} */
            type: "record";
            record: components["schemas"]["Sale"];
        };
        /** @description After every 1000 records: where a cut stream resumes. */
        BulkCheckpointLine: {
            /** @enum {string} */
            type: "checkpoint";
            /** @description Records sent so far by this response. */
            count: number;
            /** @description Pass it as Cursor to resume after the records before this line, if the stream is cut. */
            cursor: string;
        };
        /** @description A whole stream's last line: without it (or an error line), the stream was cut. */
        BulkEndLine: {
            /** @enum {string} */
            type: "end";
            /** @description The record lines this response sent. */
            count: number;
            /** @description SHA-256 of the bytes of the record lines this response sent, in order, each with its newline (checkpoint lines not included). */
            checksum: string;
        };
        /** @description The last line of a stream cut by an error after its first line. */
        BulkErrorLine: {
            /** @enum {string} */
            type: "error";
            /** @example 503 */
            status: number;
            /** @example Service Unavailable */
            title: string;
            /** @example The database is unavailable right now; retry shortly. */
            detail: string;
            /** @description The last checkpoint's cursor, to resume with; null: start again. */
            cursor: string | null;
        };
        /** @description A payment of a sale; refunds are negative. */
        Payment: {
            /** @description Identifier (an unsigned 64-bit integer, written as a string). */
            id: string;
            /** @description Id of the sale the payment belongs to. */
            saleId: string;
            /**
             * @description Code of the shop (the ShopCode of the query parameters).
             * @example SHOP001
             */
            shopCode: string;
            /**
             * @description Code of the register within its shop.
             * @example R1
             */
            registerCode: string;
            /** @description When it was paid, shop-local time. */
            paidAt: string;
            /**
             * Format: date-time
             * @description The instant of `paidAt` in UTC (RFC 3339, milliseconds), from the shop's IANA zone. A local time in a spring-forward gap is read with the offset before the change (it lands after the gap); one in a fall-back overlap is the earlier instant. Null when the shop has no zone the service knows.
             * @example 2026-03-01T09:15:41.000Z
             */
            paidAtUtc: string | null;
            /**
             * Format: date
             * @description Trading day of the payment's sale (YYYY-MM-DD), its `businessDate`.
             * @example 2026-03-01
             */
            businessDate: string;
            /**
             * @description Means of payment. Known values: CASH, CARD, VOUCHER, GIFT_CARD, TRANSFER, OTHER (more may be added).
             * @example CASH
             */
            method: string;
            /**
             * Format: decimal
             * @description Amount paid; negative for refunds. Decimal string with 2 decimals.
             */
            amount: string;
            /**
             * @description ISO 4217 currency code.
             * @example EUR
             */
            currency: string;
            /**
             * @description Card brand for card payments.
             * @example VISA
             */
            cardBrand: string | null;
            /** @description Reference of the payment (authorisation code, voucher number). */
            reference: string | null;
        };
        /** @description A page of payments. */
        PaymentsPage: {
            /** @description The records of the page, oldest first (at most Limit, at most 500). */
            data: components["schemas"]["Payment"][];
            /** @description Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page. */
            nextCursor: string | null;
        };
        /** @description A page of the feed of payments. */
        PaymentsFeedPage: {
            /** @description The records of the page in arrival order (at most Limit, at most 500). */
            data: components["schemas"]["Payment"][];
            /** @description Opaque cursor of where the feed resumes: store it, and pass it as Cursor, unchanged, on the next call. Never null: a caught-up feed resumes from it when new records arrive. */
            nextCursor: string;
            /** @description true: nothing more can be read now (the end of what is committed, or a record still being written); poll again later with nextCursor. false: read the next page now. */
            caughtUp: boolean;
        };
        /** @description One record, exactly as the list returns it. */
        PaymentsBulkRecordLine: {
            /** @enum {string} */
            type: "record";
            record: components["schemas"]["Payment"];
        };
        /** @description A movement of a register's cash drawer: positive into the drawer, negative out. */
        CashMovement: {
            /** @description Identifier (an unsigned 64-bit integer, written as a string). */
            id: string;
            /**
             * @description Code of the shop (the ShopCode of the query parameters).
             * @example SHOP001
             */
            shopCode: string;
            /**
             * @description Code of the register within its shop.
             * @example R1
             */
            registerCode: string;
            /** @description When the cash moved, shop-local time. */
            movedAt: string;
            /**
             * Format: date-time
             * @description The instant of `movedAt` in UTC (RFC 3339, milliseconds), from the shop's IANA zone. A local time in a spring-forward gap is read with the offset before the change (it lands after the gap); one in a fall-back overlap is the earlier instant. Null when the shop has no zone the service knows.
             * @example 2026-03-01T07:00:00.000Z
             */
            movedAtUtc: string | null;
            /**
             * Format: date
             * @description Trading day (YYYY-MM-DD) of the movement's drawer session: the date of the session's opening float, also for the movements after midnight and its closing count; outside a session (before the first opening, or after a count and before the next opening), the date of `movedAt`.
             * @example 2026-03-01
             */
            businessDate: string;
            /**
             * @description Kind of movement. Known values: OPENING_FLOAT, SALE, REFUND, CASH_IN, CASH_OUT, CLOSING_COUNT (more may be added).
             * @example OPENING_FLOAT
             */
            kind: string;
            /**
             * Format: decimal
             * @description Amount: positive into the drawer, negative out of it. Decimal string with 2 decimals.
             */
            amount: string;
            /**
             * @description ISO 4217 currency code.
             * @example EUR
             */
            currency: string;
            /** @description Reason typed at the register (cash in/out). */
            reason: string | null;
            /** @description Code of the employee who moved the cash. */
            employeeCode: string | null;
            /** @description The sale that moved the cash (SALE, REFUND); otherwise null. */
            saleId: string | null;
        };
        /** @description A page of cash movements. */
        CashMovementsPage: {
            /** @description The records of the page, oldest first (at most Limit, at most 500). */
            data: components["schemas"]["CashMovement"][];
            /** @description Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page. */
            nextCursor: string | null;
        };
        /** @description A page of the feed of cash movements. */
        CashMovementsFeedPage: {
            /** @description The records of the page in arrival order (at most Limit, at most 500). */
            data: components["schemas"]["CashMovement"][];
            /** @description Opaque cursor of where the feed resumes: store it, and pass it as Cursor, unchanged, on the next call. Never null: a caught-up feed resumes from it when new records arrive. */
            nextCursor: string;
            /** @description true: nothing more can be read now (the end of what is committed, or a record still being written); poll again later with nextCursor. false: read the next page now. */
            caughtUp: boolean;
        };
        /** @description One record, exactly as the list returns it. */
        CashMovementsBulkRecordLine: {
            /** @enum {string} */
            type: "record";
            record: components["schemas"]["CashMovement"];
        };
        /** @description A register's drawer session, from its opening float to its closing count: what was expected in the drawer, what was counted and the difference. Amounts are signed as the cash movements: positive into the drawer, negative out of it. */
        CashDrawerSession: {
            /** @description The id of the OPENING_FLOAT cash movement that opened the session. */
            id: string;
            /**
             * @description Code of the shop (the ShopCode of the query parameters).
             * @example SHOP001
             */
            shopCode: string;
            /**
             * @description Code of the register within its shop.
             * @example R1
             */
            registerCode: string;
            /**
             * Format: date
             * @description Trading day of the session (YYYY-MM-DD): the shop-local date of its opening float's time.
             */
            businessDate: string;
            /** @description When the opening float went into the drawer, shop-local time. */
            openedAt: string;
            /**
             * Format: date-time
             * @description The instant of `openedAt` in UTC (RFC 3339, milliseconds), from the shop's IANA zone. A local time in a spring-forward gap is read with the offset before the change (it lands after the gap); one in a fall-back overlap is the earlier instant. Null when the shop has no zone the service knows.
             * @example 2026-03-01T07:41:12.305Z
             */
            openedAtUtc: string | null;
            /** @description When the drawer was counted (the CLOSING_COUNT), shop-local time; null while open. */
            closedAt: string | null;
            /**
             * Format: date-time
             * @description The instant of `closedAt` in UTC (RFC 3339, milliseconds), from the shop's IANA zone, as `openedAtUtc`; null while the session is open.
             * @example 2026-03-01T20:12:40.118Z
             */
            closedAtUtc: string | null;
            /**
             * @description OPEN until a CLOSING_COUNT ends the session; a session followed by another opening float without a count stays OPEN. Known values: OPEN, CLOSED (more may be added).
             * @example OPEN
             */
            status: string;
            /**
             * @description ISO 4217 currency code.
             * @example EUR
             */
            currency: string;
            /**
             * Format: decimal
             * @description The opening float. Decimal string with 2 decimals.
             */
            openingFloat: string;
            /**
             * Format: decimal
             * @description Sum of the cash sales (SALE movements) of the session. Decimal string with 2 decimals.
             */
            cashSales: string;
            /**
             * Format: decimal
             * @description Sum of the cash refunds (REFUND movements, negative) of the session. Decimal string with 2 decimals.
             */
            cashRefunds: string;
            /**
             * Format: decimal
             * @description Sum of the cash put in (CASH_IN movements) during the session. Decimal string with 2 decimals.
             */
            cashIn: string;
            /**
             * Format: decimal
             * @description Sum of the cash taken out (CASH_OUT movements, negative) during the session. Decimal string with 2 decimals.
             */
            cashOut: string;
            /**
             * Format: decimal
             * @description Cash expected in the drawer at the count: the opening float plus every movement of the session before the count (of any kind). Decimal string with 2 decimals.
             */
            expected: string;
            /**
             * Format: decimal
             * @description Cash counted out of the drawer at the close; null while open. Decimal string with 2 decimals.
             */
            counted: string | null;
            /**
             * Format: decimal
             * @description counted − expected: negative when cash is short; null while open. Decimal string with 2 decimals.
             */
            discrepancy: string | null;
            /** @description Cash movements of the session, its opening float and its count included. */
            movementCount: number;
        };
        /** @description A page of cash drawer sessions. */
        CashDrawerSessionsPage: {
            /** @description The records of the page, oldest first (at most Limit, at most 500). */
            data: components["schemas"]["CashDrawerSession"][];
            /** @description Opaque cursor of the next page: pass it as Cursor, unchanged. null on the last page. */
            nextCursor: string | null;
        };
        /** @description One record, exactly as the list returns it. */
        CashDrawerSessionsBulkRecordLine: {
            /** @enum {string} */
            type: "record";
            record: components["schemas"]["CashDrawerSession"];
        };
        /** @description One sale line with its sale's header fields and payment methods. The CSV has the same columns, in this order. */
        TransactionDetailRow: {
            /**
             * @description Code of the shop (the ShopCode of the query parameters).
             * @example SHOP001
             */
            shopCode: string;
            /**
             * @description Code of the register within its shop.
             * @example R1
             */
            registerCode: string;
            /** @description Id of the sale. */
            saleId: string;
            /** @description Ticket number as printed on the receipt. */
            ticketNumber: string;
            /**
             * @description Kind of ticket. Known values: SALE, RETURN (more may be added).
             * @example SALE
             */
            kind: string;
            /**
             * @description Status; VOIDED lines are listed, not totalled. Known values: COMPLETED, VOIDED (more may be added).
             * @example COMPLETED
             */
            status: string;
            /**
             * Format: date
             * @description Trading day (YYYY-MM-DD).
             */
            businessDate: string;
            /** @description When the sale happened, shop-local time. */
            soldAt: string;
            /** @description Code of the employee who rang the sale. */
            employeeCode: string | null;
            /** @description Code of the customer, when known. */
            customerCode: string | null;
            /**
             * @description ISO 4217 currency code.
             * @example EUR
             */
            currency: string;
            /**
             * @description Distinct methods of the sale's payments, sorted, joined by '+' (`CARD+CASH`); empty when none.
             * @example CARD+CASH
             */
            paymentMethods: string;
            /** @description Line number within the sale. */
            lineNo: number;
            /** @description Item code. */
            itemCode: string;
            /** @description Item description. */
            description: string;
            /**
             * Format: decimal
             * @description Quantity; negative on returns. Decimal string with 4 decimals.
             */
            quantity: string;
            /**
             * Format: decimal
             * @description Unit price. Decimal string with 4 decimals.
             */
            unitPrice: string;
            /**
             * Format: decimal
             * @description Discount of the line. Decimal string with 2 decimals.
             */
            discount: string;
            /**
             * Format: decimal
             * @description Tax rate in percent. Decimal string with 2 decimals.
             */
            taxRate: string;
            /**
             * Format: decimal
             * @description Net amount of the line. Decimal string with 2 decimals.
             */
            net: string;
            /**
             * Format: decimal
             * @description Tax amount of the line. Decimal string with 2 decimals.
             */
            tax: string;
            /**
             * Format: decimal
             * @description Gross amount of the line. Decimal string with 2 decimals.
             */
            gross: string;
        };
        /** @description Sums of one currency's counted lines. */
        CurrencyTotals: {
            /**
             * @description ISO 4217 currency code.
             * @example EUR
             */
            currency: string;
            /**
             * Format: decimal
             * @description Sum of net. Decimal string with 2 decimals.
             */
            net: string;
            /**
             * Format: decimal
             * @description Sum of tax. Decimal string with 2 decimals.
             */
            tax: string;
            /**
             * Format: decimal
             * @description Sum of discounts. Decimal string with 2 decimals.
             */
            discount: string;
            /**
             * Format: decimal
             * @description Sum of gross. Decimal string with 2 decimals.
             */
            gross: string;
        };
        /** @description Totals of the report. Lines of VOIDED sales count only in voidedSales/voidedLines. */
        ReportTotals: {
            /** @description Sales counted (VOIDED excepted). */
            sales: number;
            /** @description Lines of those sales. */
            lines: number;
            /** @description VOIDED sales listed. */
            voidedSales: number;
            /** @description Lines of VOIDED sales listed. */
            voidedLines: number;
            /** @description One entry per currency, by currency code; empty when nothing was counted. */
            byCurrency: components["schemas"]["CurrencyTotals"][];
        };
        /** @description One row per sale line of the period, with totals. */
        TransactionDetailReport: {
            /** @description Start of the period (inclusive); by business date, BusinessDateFrom's midnight. */
            from: string;
            /** @description End of the period (exclusive); by business date, BusinessDateTo's midnight. */
            to: string;
            /**
             * Format: date
             * @description By business date only: BusinessDateFrom, the first business date (inclusive).
             */
            businessDateFrom?: string;
            /**
             * Format: date
             * @description By business date only: BusinessDateTo, the end of the business dates (exclusive).
             */
            businessDateTo?: string;
            /** @description Rows by sale date-time, sale id, then line number. */
            rows: components["schemas"]["TransactionDetailRow"][];
            totals: components["schemas"]["ReportTotals"];
        };
        /** @description The lines of one tax rate, summed. */
        BusinessDayTaxRate: {
            /**
             * Format: decimal
             * @description Tax rate in percent, as the lines carry it. Decimal string with 2 decimals.
             */
            taxRate: string;
            /**
             * Format: decimal
             * @description Sum of the `net` of the lines at this rate. Decimal string with 2 decimals.
             */
            net: string;
            /**
             * Format: decimal
             * @description Sum of the `tax` of the lines at this rate. Decimal string with 2 decimals.
             */
            tax: string;
            /**
             * Format: decimal
             * @description Sum of the `gross` of the lines at this rate. Decimal string with 2 decimals.
             */
            gross: string;
        };
        /** @description The sales of the business day (`businessDate`): counts of every ticket, sums of those not voided. */
        BusinessDaySales: {
            /** @description Sales (`kind` SALE) with `status` COMPLETED. */
            completed: number;
            /** @description Returns (`kind` RETURN) with `status` COMPLETED. */
            returns: number;
            /** @description Tickets with `status` VOIDED, of any kind. */
            voided: number;
            /**
             * Format: decimal
             * @description Sum of `totalGross` of the tickets not voided (returns are negative). Decimal string with 2 decimals.
             */
            gross: string;
            /**
             * Format: decimal
             * @description Sum of `totalNet` of the tickets not voided. Decimal string with 2 decimals.
             */
            net: string;
            /**
             * Format: decimal
             * @description Sum of `totalTax` of the tickets not voided. Decimal string with 2 decimals.
             */
            tax: string;
            /**
             * Format: decimal
             * @description Sum of `totalDiscount` of the tickets not voided. Decimal string with 2 decimals.
             */
            discount: string;
            /** @description The lines of the tickets not voided, by `taxRate`, in ascending rate order. */
            taxRates: components["schemas"]["BusinessDayTaxRate"][];
        };
        /** @description The payments of one method. */
        BusinessDayPaymentMethod: {
            /** @description The payment method, as payments carry it. */
            method: string;
            /** @description Payments of this method. */
            count: number;
            /**
             * Format: decimal
             * @description Sum of their `amount` (refunds are negative). Decimal string with 2 decimals.
             */
            amount: string;
        };
        /** @description Every payment whose `businessDate` (its sale's) is the day, voided sales' included. */
        BusinessDayPayments: {
            /** @description Payments of the day. */
            count: number;
            /**
             * Format: decimal
             * @description Sum of their `amount`. Decimal string with 2 decimals.
             */
            amount: string;
            /** @description By `method`, in method order. */
            methods: components["schemas"]["BusinessDayPaymentMethod"][];
        };
        /** @description The drawer sessions opened on the day (GET /cash-drawer-sessions with that `businessDate`), summed. */
        BusinessDayCash: {
            /** @description Drawer sessions of the day. */
            sessions: number;
            /** @description Of them, still `OPEN` (not counted yet). */
            open: number;
            /**
             * Format: decimal
             * @description Sum of their `openingFloat`. Decimal string with 2 decimals.
             */
            openingFloat: string;
            /**
             * Format: decimal
             * @description Sum of their `expected`, the open sessions' (so far) included. Decimal string with 2 decimals.
             */
            expected: string;
            /**
             * Format: decimal
             * @description Sum of `counted` of the CLOSED sessions. Decimal string with 2 decimals.
             */
            counted: string;
            /**
             * Format: decimal
             * @description Sum of `discrepancy` of the CLOSED sessions (negative: short). Decimal string with 2 decimals.
             */
            discrepancy: string;
        };
        /** @description One resource's records of the day. */
        BusinessDayDigest: {
            /** @description Records of the resource whose `businessDate` is the day. */
            count: number;
            /** @description The checksum of those records by the digests' rule (docs/sync.md, "The checksum"), in the digest version the answer names. */
            checksum: string;
        };
        /** @description The digests of the day, by business date. */
        BusinessDayDigests: {
            sales: components["schemas"]["BusinessDayDigest"];
            payments: components["schemas"]["BusinessDayDigest"];
            cashMovements: components["schemas"]["BusinessDayDigest"];
        };
        /** @description One business day's close: every figure is a sum over the list endpoints' records whose `businessDate` is that day (docs/database.md, "The day close"). */
        BusinessDay: {
            /**
             * Format: date
             * @description The business date (trading day), YYYY-MM-DD.
             * @example 2026-03-01
             */
            businessDate: string;
            sales: components["schemas"]["BusinessDaySales"];
            payments: components["schemas"]["BusinessDayPayments"];
            cash: components["schemas"]["BusinessDayCash"];
            digests: components["schemas"]["BusinessDayDigests"];
        };
        /** @description The digest version of `digests`, then one entry per business date of the period. */
        BusinessDays: {
            /**
             * @description The digest version the `digests` follow (docs/sync.md, "Digest versions"): the Version asked for, else the newest.
             * @example 2
             * @enum {number}
             */
            version: 1 | 2;
            /** @description Every business date from From (inclusive) to To (exclusive), empty days included; empty when the shop is outside the token claims. */
            data: components["schemas"]["BusinessDay"][];
        };
        /** @description What is wrong with one field or parameter. */
        ProblemFieldError: {
            /**
             * @description Name of the body field or query parameter.
             * @example From
             */
            field: string;
            /**
             * @description What is wrong with it.
             * @example no such date
             */
            message: string;
        };
        /** @description RFC 9457 problem details: the body of every error (media type application/problem+json). */
        ProblemDetails: {
            /**
             * Format: uri
             * @description Problem type (a URN): stable, compare it rather than the title.
             * @example urn:pos-read-api:problem:unauthorized
             */
            type: string;
            /** @description Short summary of the problem type. */
            title: string;
            /** @description HTTP status. */
            status: number;
            /** @description What went wrong with this request. */
            detail: string;
            /** @description Path of the request (without query string). */
            instance: string;
            /** @description Id of the request (echoed X-Request-Id or generated); quote it in support requests. */
            requestId: string;
            /** @description Id of the trace of this request when the service exports traces (OpenTelemetry); quote it with the request id. */
            traceId?: string;
            /** @description For validation problems: one entry per field or parameter in error. */
            errors?: components["schemas"]["ProblemFieldError"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    issueToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON object (Content-Type: application/json), at most 16 KiB. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description The token and when it expires. */
            200: {
                headers: {
                    /** @description Always `no-store`. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description The body is not a JSON object with two non-empty strings `username` and `password` (missing or unknown field, wrong type, malformed JSON). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "password should not be empty",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "password",
                     *           "message": "password should not be empty"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Wrong username or password, or the user is disabled (one answer for all). */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The username or password is incorrect.",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Valid credentials of a user without the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "This user does not have the ApiUser role; ask a back-office administrator.",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is larger than 16 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:payload-too-large",
                     *       "title": "Payload Too Large",
                     *       "status": 413,
                     *       "detail": "The request body is too large.",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unsupported-media-type",
                     *       "title": "Unsupported Media Type",
                     *       "status": 415,
                     *       "detail": "Unsupported content type: send application/json.",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The username is locked after repeated failures (even with the right password), or more sign-ins of it than the failure budget allows are being verified at once, or this client address sent too many token requests. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Too many failed sign-in attempts for this username; try again later.",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many sign-ins are being verified right now (nothing was checked, no attempt counted), or the database is unreachable or too slow to sign in within the request's deadline. Retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "Too many sign-ins are being verified right now; try again in a moment.",
                     *       "instance": "/api/v1.0/Token",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listShops: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shops, in code order (not paginated). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "code": "SHOP001",
                     *           "name": "Mercado Sol Centro",
                     *           "timeZone": "Europe/Madrid",
                     *           "currency": "EUR"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ShopList"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/shops",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/shops",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/shops",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/shops",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listSales: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty page (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; must not be before From. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: only the records whose `businessDate` is in the range. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; must not be before BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To read the next page: the `nextCursor` of the previous page, passed unchanged (opaque, signed, bound to the query and the caller). Empty or omitted: the first page. With a cursor, ShopCode, From and To (or BusinessDateFrom and BusinessDateTo) may be left out; given again, they must match the query the cursor belongs to (else 400). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
                /**
                 * @description Records per page, 1 to 500. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 100
                 */
                Limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records and the cursor of the next page. */
            200: {
                headers: {
                    /** @description When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request's URL, with the body's `nextCursor` and the request's Limit. Lets a client ask for the next page while this one is still arriving. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "1048576",
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "ticketNumber": "R1-000123",
                     *           "kind": "SALE",
                     *           "status": "COMPLETED",
                     *           "businessDate": "2026-03-01",
                     *           "soldAt": "2026-03-01T10:15:30.250",
                     *           "soldAtUtc": "2026-03-01T09:15:30.250Z",
                     *           "currency": "EUR",
                     *           "totalNet": "10.33",
                     *           "totalTax": "2.17",
                     *           "totalDiscount": "0.00",
                     *           "totalGross": "12.50",
                     *           "employeeCode": "E007",
                     *           "customerCode": null,
                     *           "originalSaleId": null,
                     *           "lines": [
                     *             {
                     *               "lineNo": 1,
                     *               "itemCode": "8410000000012",
                     *               "description": "Aceite de oliva virgen extra 1 l",
                     *               "quantity": "1.0000",
                     *               "unitPrice": "12.5000",
                     *               "discount": "0.00",
                     *               "taxRate": "21.00",
                     *               "net": "10.33",
                     *               "tax": "2.17",
                     *               "gross": "12.50"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "nextCursor": "WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0"
                     *     }
                     */
                    "application/json": components["schemas"]["SalesPage"];
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/sales",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/sales",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/sales",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/sales",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/sales",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    salesFeed: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty page (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Only sales that reached the back office at or after this moment (`created_at`, the back-office database's clock, not the shop's), for the first call; the cursor carries it on. Omitted: from the first sale. ISO 8601 without zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description To continue the feed: the `nextCursor` of the previous page, passed unchanged (opaque, signed, bound to the resource, the caller and the filters). Store it after each page and send it on the next poll, in a minute or a day. Empty or omitted: the first page. With a cursor the other filters may be left out; given again, they must match (else 400). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
                /**
                 * @description Records per page, 1 to 500. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 100
                 */
                Limit?: number;
                /**
                 * @description Seconds, 0 to 20: when nothing can be read now, hold the request until a record of the feed's shops arrives (answered within about a second of its commit) or the time runs out, then answer the usual page (empty, `caughtUp: true`, when nothing came). Not part of the cursor: each call may wait or not. Omitted or 0: answer at once. Past the per-user or per-instance number of waiting requests: 429 or 503 with Retry-After. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 1
                 */
                Wait?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records in arrival order, the cursor to resume from and whether the feed is caught up. */
            200: {
                headers: {
                    /** @description When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request's URL, with the body's `nextCursor` and the request's Limit. Lets a client ask for the next page while this one is still arriving. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "1048576",
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "ticketNumber": "R1-000123",
                     *           "kind": "SALE",
                     *           "status": "COMPLETED",
                     *           "businessDate": "2026-03-01",
                     *           "soldAt": "2026-03-01T10:15:30.250",
                     *           "soldAtUtc": "2026-03-01T09:15:30.250Z",
                     *           "currency": "EUR",
                     *           "totalNet": "10.33",
                     *           "totalTax": "2.17",
                     *           "totalDiscount": "0.00",
                     *           "totalGross": "12.50",
                     *           "employeeCode": "E007",
                     *           "customerCode": null,
                     *           "originalSaleId": null,
                     *           "lines": [
                     *             {
                     *               "lineNo": 1,
                     *               "itemCode": "8410000000012",
                     *               "description": "Aceite de oliva virgen extra 1 l",
                     *               "quantity": "1.0000",
                     *               "unitPrice": "12.5000",
                     *               "discount": "0.00",
                     *               "taxRate": "21.00",
                     *               "net": "10.33",
                     *               "tax": "2.17",
                     *               "gross": "12.50"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "nextCursor": "WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0",
                     *       "caughtUp": true
                     *     }
                     */
                    "application/json": components["schemas"]["SalesFeedPage"];
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/sales/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/sales/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/sales/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/sales/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/sales/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    salesDigest: {
        parameters: {
            query: {
                /**
                 * @description Shop to digest (required: a digest is of one shop). A shop outside the token claims yields `{"data": []}` (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode: string;
                /**
                 * @description First date of the period, inclusive. A shop-local calendar date `YYYY-MM-DD` (no time, no zone); From and To at most 92 days apart. Required unless BusinessDateFrom and BusinessDateTo are given instead. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive: the day after the last date. A shop-local calendar date `YYYY-MM-DD` (no time, no zone); From and To at most 92 days apart. Required unless BusinessDateFrom and BusinessDateTo are given instead. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: one entry per business date, each of the records whose `businessDate` it is. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 92 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description The digest version whose fields the checksums cover (docs/sync.md, "Digest versions"): 1 or 2; absent: the newest, 2. A copy verifies with the version it was built on, and moves to a newer one on purpose. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2
                 */
                Version?: 1 | 2;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per date of the period, in date order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": 2,
                     *       "data": [
                     *         {
                     *           "date": "2026-03-01",
                     *           "count": 2,
                     *           "checksum": "9c1f3a0e5b7d2c4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e"
                     *         },
                     *         {
                     *           "date": "2026-03-02",
                     *           "count": 0,
                     *           "checksum": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Digest"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing or malformed (not a date, an impossible date, To before From, more than 92 days, both From/To and BusinessDateFrom/To or half a pair, a Version other than 1 or 2): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "To: must be at most 92 days after From.",
                     *       "instance": "/api/v1.0/sales/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "To",
                     *           "message": "must be at most 92 days after From"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/sales/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/sales/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/sales/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/sales/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/sales/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    salesBulk: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read: required (one shop a stream). A shop outside the token claims yields a stream without records (200), the same as an unknown one, never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive; required without Cursor, unless BusinessDateFrom and BusinessDateTo are given. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; required as From is, at most 1096 days after From. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: the records whose `businessDate` is in the range, in the same order. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 1096 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To resume a bulk read that was cut: the `cursor` of the last `checkpoint` line received, unchanged (opaque, signed, bound to the resource, the caller and the period). The read goes on after that checkpoint; drop the records received after it. With a cursor, ShopCode, From and To may be left out; given again, they must match (else 400). Empty or omitted: from the start of the period. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream: start, records and checkpoints, then end or error. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "start",
                     *       "resource": "sales",
                     *       "shopCode": "SHOP001",
                     *       "from": "2026-03-01T00:00:00.000",
                     *       "to": "2026-04-01T00:00:00.000",
                     *       "businessDateFrom": null,
                     *       "businessDateTo": null,
                     *       "feedCursor": "WzEsInNhbGVzL2ZlZWQiLC4uLl0.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/x-ndjson": components["schemas"]["BulkStartLine"] | components["schemas"]["SalesBulkRecordLine"] | components["schemas"]["BulkCheckpointLine"] | components["schemas"]["BulkEndLine"] | components["schemas"]["BulkErrorLine"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing (ShopCode, From and To without Cursor) or malformed, To before From, more than 1096 days after it, or a cursor of another read: `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "To: must be at most 1096 days after From.",
                     *       "instance": "/api/v1.0/sales/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "To",
                     *           "message": "must be at most 1096 days after From"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/sales/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/sales/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/sales/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/sales/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/sales/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty page (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; must not be before From. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: only the records whose `businessDate` is in the range. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; must not be before BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To read the next page: the `nextCursor` of the previous page, passed unchanged (opaque, signed, bound to the query and the caller). Empty or omitted: the first page. With a cursor, ShopCode, From and To (or BusinessDateFrom and BusinessDateTo) may be left out; given again, they must match the query the cursor belongs to (else 400). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
                /**
                 * @description Records per page, 1 to 500. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 100
                 */
                Limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records and the cursor of the next page. */
            200: {
                headers: {
                    /** @description When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request's URL, with the body's `nextCursor` and the request's Limit. Lets a client ask for the next page while this one is still arriving. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "2097152",
                     *           "saleId": "1048576",
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "paidAt": "2026-03-01T10:15:41.000",
                     *           "paidAtUtc": "2026-03-01T09:15:41.000Z",
                     *           "businessDate": "2026-03-01",
                     *           "method": "CARD",
                     *           "amount": "12.50",
                     *           "currency": "EUR",
                     *           "cardBrand": "VISA",
                     *           "reference": "AUTH-483920"
                     *         }
                     *       ],
                     *       "nextCursor": "WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0"
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentsPage"];
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/payments",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/payments",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/payments",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/payments",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/payments",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    paymentsFeed: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty page (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description To continue the feed: the `nextCursor` of the previous page, passed unchanged (opaque, signed, bound to the resource, the caller and the filters). Store it after each page and send it on the next poll, in a minute or a day. Empty or omitted: the first page. With a cursor the other filters may be left out; given again, they must match (else 400). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
                /**
                 * @description Records per page, 1 to 500. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 100
                 */
                Limit?: number;
                /**
                 * @description Seconds, 0 to 20: when nothing can be read now, hold the request until a record of the feed's shops arrives (answered within about a second of its commit) or the time runs out, then answer the usual page (empty, `caughtUp: true`, when nothing came). Not part of the cursor: each call may wait or not. Omitted or 0: answer at once. Past the per-user or per-instance number of waiting requests: 429 or 503 with Retry-After. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 1
                 */
                Wait?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records in arrival order, the cursor to resume from and whether the feed is caught up. */
            200: {
                headers: {
                    /** @description When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request's URL, with the body's `nextCursor` and the request's Limit. Lets a client ask for the next page while this one is still arriving. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "2097152",
                     *           "saleId": "1048576",
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "paidAt": "2026-03-01T10:15:41.000",
                     *           "paidAtUtc": "2026-03-01T09:15:41.000Z",
                     *           "businessDate": "2026-03-01",
                     *           "method": "CARD",
                     *           "amount": "12.50",
                     *           "currency": "EUR",
                     *           "cardBrand": "VISA",
                     *           "reference": "AUTH-483920"
                     *         }
                     *       ],
                     *       "nextCursor": "WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0",
                     *       "caughtUp": true
                     *     }
                     */
                    "application/json": components["schemas"]["PaymentsFeedPage"];
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/payments/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/payments/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/payments/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/payments/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/payments/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    paymentsDigest: {
        parameters: {
            query: {
                /**
                 * @description Shop to digest (required: a digest is of one shop). A shop outside the token claims yields `{"data": []}` (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode: string;
                /**
                 * @description First date of the period, inclusive. A shop-local calendar date `YYYY-MM-DD` (no time, no zone); From and To at most 92 days apart. Required unless BusinessDateFrom and BusinessDateTo are given instead. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive: the day after the last date. A shop-local calendar date `YYYY-MM-DD` (no time, no zone); From and To at most 92 days apart. Required unless BusinessDateFrom and BusinessDateTo are given instead. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: one entry per business date, each of the records whose `businessDate` it is. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 92 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description The digest version whose fields the checksums cover (docs/sync.md, "Digest versions"): 1 or 2; absent: the newest, 2. A copy verifies with the version it was built on, and moves to a newer one on purpose. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2
                 */
                Version?: 1 | 2;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per date of the period, in date order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": 2,
                     *       "data": [
                     *         {
                     *           "date": "2026-03-01",
                     *           "count": 2,
                     *           "checksum": "9c1f3a0e5b7d2c4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e"
                     *         },
                     *         {
                     *           "date": "2026-03-02",
                     *           "count": 0,
                     *           "checksum": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Digest"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing or malformed (not a date, an impossible date, To before From, more than 92 days, both From/To and BusinessDateFrom/To or half a pair, a Version other than 1 or 2): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "To: must be at most 92 days after From.",
                     *       "instance": "/api/v1.0/payments/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "To",
                     *           "message": "must be at most 92 days after From"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/payments/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/payments/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/payments/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/payments/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/payments/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    paymentsBulk: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read: required (one shop a stream). A shop outside the token claims yields a stream without records (200), the same as an unknown one, never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive; required without Cursor, unless BusinessDateFrom and BusinessDateTo are given. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; required as From is, at most 1096 days after From. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: the records whose `businessDate` is in the range, in the same order. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 1096 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To resume a bulk read that was cut: the `cursor` of the last `checkpoint` line received, unchanged (opaque, signed, bound to the resource, the caller and the period). The read goes on after that checkpoint; drop the records received after it. With a cursor, ShopCode, From and To may be left out; given again, they must match (else 400). Empty or omitted: from the start of the period. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream: start, records and checkpoints, then end or error. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "start",
                     *       "resource": "payments",
                     *       "shopCode": "SHOP001",
                     *       "from": "2026-03-01T00:00:00.000",
                     *       "to": "2026-04-01T00:00:00.000",
                     *       "businessDateFrom": null,
                     *       "businessDateTo": null,
                     *       "feedCursor": "WzEsInNhbGVzL2ZlZWQiLC4uLl0.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/x-ndjson": components["schemas"]["BulkStartLine"] | components["schemas"]["PaymentsBulkRecordLine"] | components["schemas"]["BulkCheckpointLine"] | components["schemas"]["BulkEndLine"] | components["schemas"]["BulkErrorLine"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing (ShopCode, From and To without Cursor) or malformed, To before From, more than 1096 days after it, or a cursor of another read: `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "To: must be at most 1096 days after From.",
                     *       "instance": "/api/v1.0/payments/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "To",
                     *           "message": "must be at most 1096 days after From"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/payments/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/payments/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/payments/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/payments/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/payments/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listCashMovements: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty page (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; must not be before From. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: only the records whose `businessDate` is in the range. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; must not be before BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To read the next page: the `nextCursor` of the previous page, passed unchanged (opaque, signed, bound to the query and the caller). Empty or omitted: the first page. With a cursor, ShopCode, From and To (or BusinessDateFrom and BusinessDateTo) may be left out; given again, they must match the query the cursor belongs to (else 400). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
                /**
                 * @description Records per page, 1 to 500. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 100
                 */
                Limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records and the cursor of the next page. */
            200: {
                headers: {
                    /** @description When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request's URL, with the body's `nextCursor` and the request's Limit. Lets a client ask for the next page while this one is still arriving. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "524288",
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "movedAt": "2026-03-01T08:00:00.000",
                     *           "movedAtUtc": "2026-03-01T07:00:00.000Z",
                     *           "businessDate": "2026-03-01",
                     *           "kind": "OPENING_FLOAT",
                     *           "amount": "150.00",
                     *           "currency": "EUR",
                     *           "reason": null,
                     *           "employeeCode": "E007",
                     *           "saleId": null
                     *         }
                     *       ],
                     *       "nextCursor": "WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0"
                     *     }
                     */
                    "application/json": components["schemas"]["CashMovementsPage"];
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/cash-movements",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/cash-movements",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/cash-movements",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/cash-movements",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/cash-movements",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    cashMovementsFeed: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty page (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description To continue the feed: the `nextCursor` of the previous page, passed unchanged (opaque, signed, bound to the resource, the caller and the filters). Store it after each page and send it on the next poll, in a minute or a day. Empty or omitted: the first page. With a cursor the other filters may be left out; given again, they must match (else 400). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
                /**
                 * @description Records per page, 1 to 500. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 100
                 */
                Limit?: number;
                /**
                 * @description Seconds, 0 to 20: when nothing can be read now, hold the request until a record of the feed's shops arrives (answered within about a second of its commit) or the time runs out, then answer the usual page (empty, `caughtUp: true`, when nothing came). Not part of the cursor: each call may wait or not. Omitted or 0: answer at once. Past the per-user or per-instance number of waiting requests: 429 or 503 with Retry-After. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 1
                 */
                Wait?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records in arrival order, the cursor to resume from and whether the feed is caught up. */
            200: {
                headers: {
                    /** @description When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request's URL, with the body's `nextCursor` and the request's Limit. Lets a client ask for the next page while this one is still arriving. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "524288",
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "movedAt": "2026-03-01T08:00:00.000",
                     *           "movedAtUtc": "2026-03-01T07:00:00.000Z",
                     *           "businessDate": "2026-03-01",
                     *           "kind": "OPENING_FLOAT",
                     *           "amount": "150.00",
                     *           "currency": "EUR",
                     *           "reason": null,
                     *           "employeeCode": "E007",
                     *           "saleId": null
                     *         }
                     *       ],
                     *       "nextCursor": "WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0",
                     *       "caughtUp": true
                     *     }
                     */
                    "application/json": components["schemas"]["CashMovementsFeedPage"];
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/cash-movements/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/cash-movements/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/cash-movements/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/cash-movements/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/cash-movements/feed",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    cashMovementsDigest: {
        parameters: {
            query: {
                /**
                 * @description Shop to digest (required: a digest is of one shop). A shop outside the token claims yields `{"data": []}` (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode: string;
                /**
                 * @description First date of the period, inclusive. A shop-local calendar date `YYYY-MM-DD` (no time, no zone); From and To at most 92 days apart. Required unless BusinessDateFrom and BusinessDateTo are given instead. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive: the day after the last date. A shop-local calendar date `YYYY-MM-DD` (no time, no zone); From and To at most 92 days apart. Required unless BusinessDateFrom and BusinessDateTo are given instead. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: one entry per business date, each of the records whose `businessDate` it is. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 92 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description The digest version whose fields the checksums cover (docs/sync.md, "Digest versions"): 1 or 2; absent: the newest, 2. A copy verifies with the version it was built on, and moves to a newer one on purpose. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2
                 */
                Version?: 1 | 2;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per date of the period, in date order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": 2,
                     *       "data": [
                     *         {
                     *           "date": "2026-03-01",
                     *           "count": 2,
                     *           "checksum": "9c1f3a0e5b7d2c4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e"
                     *         },
                     *         {
                     *           "date": "2026-03-02",
                     *           "count": 0,
                     *           "checksum": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Digest"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing or malformed (not a date, an impossible date, To before From, more than 92 days, both From/To and BusinessDateFrom/To or half a pair, a Version other than 1 or 2): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "To: must be at most 92 days after From.",
                     *       "instance": "/api/v1.0/cash-movements/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "To",
                     *           "message": "must be at most 92 days after From"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/cash-movements/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/cash-movements/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/cash-movements/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/cash-movements/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/cash-movements/digest",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    cashMovementsBulk: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read: required (one shop a stream). A shop outside the token claims yields a stream without records (200), the same as an unknown one, never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive; required without Cursor, unless BusinessDateFrom and BusinessDateTo are given. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; required as From is, at most 1096 days after From. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: the records whose `businessDate` is in the range, in the same order. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 1096 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To resume a bulk read that was cut: the `cursor` of the last `checkpoint` line received, unchanged (opaque, signed, bound to the resource, the caller and the period). The read goes on after that checkpoint; drop the records received after it. With a cursor, ShopCode, From and To may be left out; given again, they must match (else 400). Empty or omitted: from the start of the period. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream: start, records and checkpoints, then end or error. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "start",
                     *       "resource": "cash-movements",
                     *       "shopCode": "SHOP001",
                     *       "from": "2026-03-01T00:00:00.000",
                     *       "to": "2026-04-01T00:00:00.000",
                     *       "businessDateFrom": null,
                     *       "businessDateTo": null,
                     *       "feedCursor": "WzEsInNhbGVzL2ZlZWQiLC4uLl0.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/x-ndjson": components["schemas"]["BulkStartLine"] | components["schemas"]["CashMovementsBulkRecordLine"] | components["schemas"]["BulkCheckpointLine"] | components["schemas"]["BulkEndLine"] | components["schemas"]["BulkErrorLine"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing (ShopCode, From and To without Cursor) or malformed, To before From, more than 1096 days after it, or a cursor of another read: `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "To: must be at most 1096 days after From.",
                     *       "instance": "/api/v1.0/cash-movements/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "To",
                     *           "message": "must be at most 1096 days after From"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/cash-movements/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/cash-movements/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/cash-movements/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/cash-movements/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/cash-movements/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listCashDrawerSessions: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty page (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; must not be before From. Omitted: unbounded. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: only the records whose `businessDate` is in the range. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; must not be before BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To read the next page: the `nextCursor` of the previous page, passed unchanged (opaque, signed, bound to the query and the caller). Empty or omitted: the first page. With a cursor, ShopCode, From and To (or BusinessDateFrom and BusinessDateTo) may be left out; given again, they must match the query the cursor belongs to (else 400). Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
                /**
                 * @description Records per page, 1 to 500. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 100
                 */
                Limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records and the cursor of the next page. */
            200: {
                headers: {
                    /** @description When there is a next page (a list: `nextCursor` is not null; a feed: `caughtUp` is false): `<?Cursor=…>; rel="next"` (RFC 8288), relative to this request's URL, with the body's `nextCursor` and the request's Limit. Lets a client ask for the next page while this one is still arriving. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "524288",
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "businessDate": "2026-03-01",
                     *           "openedAt": "2026-03-01T08:41:12.305",
                     *           "openedAtUtc": "2026-03-01T07:41:12.305Z",
                     *           "closedAt": "2026-03-01T21:12:40.118",
                     *           "closedAtUtc": "2026-03-01T20:12:40.118Z",
                     *           "status": "CLOSED",
                     *           "currency": "EUR",
                     *           "openingFloat": "150.00",
                     *           "cashSales": "412.35",
                     *           "cashRefunds": "-12.40",
                     *           "cashIn": "20.00",
                     *           "cashOut": "-300.00",
                     *           "expected": "269.95",
                     *           "counted": "268.45",
                     *           "discrepancy": "-1.50",
                     *           "movementCount": 31
                     *         }
                     *       ],
                     *       "nextCursor": "WzEsInNhbGVzIiwiNDIiLG51bGwsbnVsbCxudWxsLCIyMDI2LTAzLTAxIDEwOjE1OjMwLjI1MCIsIjEwNDg1NzYiXQ.q8c3n3yG1m8n2lJm3x1Zl1oB9f2c1a0e4X7y6w5v4u0"
                     *     }
                     */
                    "application/json": components["schemas"]["CashDrawerSessionsPage"];
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/cash-drawer-sessions",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database is unreachable, or too slow to serve the request within its deadline (15 s by default); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    cashDrawerSessionsBulk: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read: required (one shop a stream). A shop outside the token claims yields a stream without records (200), the same as an unknown one, never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive; required without Cursor, unless BusinessDateFrom and BusinessDateTo are given. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; required as From is, at most 1096 days after From. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: the records whose `businessDate` is in the range, in the same order. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 1096 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
                /**
                 * @description To resume a bulk read that was cut: the `cursor` of the last `checkpoint` line received, unchanged (opaque, signed, bound to the resource, the caller and the period). The read goes on after that checkpoint; drop the records received after it. With a cursor, ShopCode, From and To may be left out; given again, they must match (else 400). Empty or omitted: from the start of the period. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                Cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream: start, records and checkpoints, then end or error. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "start",
                     *       "resource": "cash-drawer-sessions",
                     *       "shopCode": "SHOP001",
                     *       "from": "2026-03-01T00:00:00.000",
                     *       "to": "2026-04-01T00:00:00.000",
                     *       "businessDateFrom": null,
                     *       "businessDateTo": null,
                     *       "feedCursor": null
                     *     }
                     */
                    "application/x-ndjson": components["schemas"]["BulkStartLine"] | components["schemas"]["CashDrawerSessionsBulkRecordLine"] | components["schemas"]["BulkCheckpointLine"] | components["schemas"]["BulkEndLine"] | components["schemas"]["BulkErrorLine"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing (ShopCode, From and To without Cursor) or malformed, To before From, more than 1096 days after it, or a cursor of another read: `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "To: must be at most 1096 days after From.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "To",
                     *           "message": "must be at most 1096 days after From"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/cash-drawer-sessions/bulk",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getTransactionDetailReport: {
        parameters: {
            query?: {
                /**
                 * @description Shop to read. Omitted: every shop of the token claims. A shop outside the claims yields an empty report (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode?: string;
                /**
                 * @description Start of the period, inclusive. Required unless by business date. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01T00:00:00
                 */
                From?: string;
                /**
                 * @description End of the period, exclusive; must not be before From, and at most 31 days after it. Required unless by business date. Shop-local date-time in ISO 8601 **without** zone designator (`2026-03-01T00:00:00`; fractions allowed; a bare date means its midnight). A zone (`Z`, `+01:00`) or an impossible date is a 400. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01T00:00:00
                 */
                To?: string;
                /**
                 * @description First business date, inclusive: the lines of the sales whose `businessDate` is in the range. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateFrom?: string;
                /**
                 * @description End of the business dates, exclusive; at most 31 days after BusinessDateFrom. A business date `YYYY-MM-DD` (the trading day a record belongs to, its `businessDate`), instead of From and To: give both or neither, and not with From or To. Empty: not given. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example
                 */
                BusinessDateTo?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report, as JSON or as CSV depending on the Accept header. */
            200: {
                headers: {
                    /** @description Calls allowed per minute and user (12). */
                    "RateLimit-Limit"?: number;
                    /** @description Calls left in the current window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, e.g. `12;w=60`. */
                    "RateLimit-Policy"?: string;
                    /** @description For CSV: `attachment; filename="TransactionDetailReport_….csv"`. */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "from": "2026-03-01T00:00:00.000",
                     *       "to": "2026-03-02T00:00:00.000",
                     *       "rows": [
                     *         {
                     *           "shopCode": "SHOP001",
                     *           "registerCode": "R1",
                     *           "saleId": "1048576",
                     *           "ticketNumber": "R1-000123",
                     *           "kind": "SALE",
                     *           "status": "COMPLETED",
                     *           "businessDate": "2026-03-01",
                     *           "soldAt": "2026-03-01T10:15:30.250",
                     *           "employeeCode": "E007",
                     *           "customerCode": null,
                     *           "currency": "EUR",
                     *           "paymentMethods": "CARD",
                     *           "lineNo": 1,
                     *           "itemCode": "8410000000012",
                     *           "description": "Aceite de oliva virgen extra 1 l",
                     *           "quantity": "1.0000",
                     *           "unitPrice": "12.5000",
                     *           "discount": "0.00",
                     *           "taxRate": "21.00",
                     *           "net": "10.33",
                     *           "tax": "2.17",
                     *           "gross": "12.50"
                     *         }
                     *       ],
                     *       "totals": {
                     *         "sales": 1,
                     *         "lines": 1,
                     *         "voidedSales": 0,
                     *         "voidedLines": 0,
                     *         "byCurrency": [
                     *           {
                     *             "currency": "EUR",
                     *             "net": "10.33",
                     *             "tax": "2.17",
                     *             "discount": "0.00",
                     *             "gross": "12.50"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["TransactionDetailReport"];
                    /**
                     * @example shopCode,registerCode,saleId,ticketNumber,kind,status,businessDate,soldAt,employeeCode,customerCode,currency,paymentMethods,lineNo,itemCode,description,quantity,unitPrice,discount,taxRate,net,tax,gross
                     *     SHOP001,R1,1048576,R1-000123,SALE,COMPLETED,2026-03-01,2026-03-01T10:15:30.250,E007,,EUR,CARD,1,8410000000012,Aceite de oliva virgen extra 1 l,1.0000,12.5000,0.00,21.00,10.33,2.17,12.50
                     */
                    "text/csv": string;
                };
            };
            /** @description A query parameter is unknown, repeated, too long or malformed (a zone designator, an impossible date, From after To, a tampered cursor): `errors[]` names each one. From and To, or BusinessDateFrom and BusinessDateTo (not both pairs, not half of one), are required and at most 31 days apart. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From is not a valid local date-time: it must not carry a zone designator (the shop-local time is meant).",
                     *       "instance": "/api/v1.0/TransactionDetailReport",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "it must not carry a zone designator (the shop-local time is meant)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/TransactionDetailReport",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/TransactionDetailReport",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description More than 12 calls in a minute by this user, or past the expensive reads' fair share (`detail` names the limit). Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Rate limit exceeded: 12 reports a minute per user.",
                     *       "instance": "/api/v1.0/TransactionDetailReport",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/TransactionDetailReport",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts report calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow to start the report within the request's deadline (counted to its first byte; such a call is not counted); retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The database is unavailable right now; retry shortly.",
                     *       "instance": "/api/v1.0/TransactionDetailReport",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listBusinessDays: {
        parameters: {
            query: {
                /**
                 * @description Shop to close (required: a close is of one shop). A shop outside the token claims yields `{"version": …, "data": []}` (200), never data of another shop. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example SHOP001
                 */
                ShopCode: string;
                /**
                 * @description First business date, inclusive: `YYYY-MM-DD` (no time, no zone); From and To at most 92 days apart. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-03-01
                 */
                From: string;
                /**
                 * @description End of the period, exclusive: the day after the last business date. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2026-04-01
                 */
                To: string;
                /**
                 * @description The digest version of `digests` (docs/sync.md, "Digest versions"), as the digest endpoints take it; absent: the newest, 2. Parameter names match case-insensitively (`shopcode` is `ShopCode`).
                 * @example 2
                 */
                Version?: 1 | 2;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One entry per business date of the period, in date order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "version": 2,
                     *       "data": [
                     *         {
                     *           "businessDate": "2026-03-07",
                     *           "sales": {
                     *             "completed": 212,
                     *             "returns": 3,
                     *             "voided": 2,
                     *             "gross": "4518.70",
                     *             "net": "3734.46",
                     *             "tax": "784.24",
                     *             "discount": "61.20",
                     *             "taxRates": [
                     *               {
                     *                 "taxRate": "10.00",
                     *                 "net": "1180.00",
                     *                 "tax": "118.00",
                     *                 "gross": "1298.00"
                     *               },
                     *               {
                     *                 "taxRate": "21.00",
                     *                 "net": "2554.46",
                     *                 "tax": "666.24",
                     *                 "gross": "3220.70"
                     *               }
                     *             ]
                     *           },
                     *           "payments": {
                     *             "count": 219,
                     *             "amount": "4518.70",
                     *             "methods": [
                     *               {
                     *                 "method": "CARD",
                     *                 "count": 151,
                     *                 "amount": "3342.10"
                     *               },
                     *               {
                     *                 "method": "CASH",
                     *                 "count": 68,
                     *                 "amount": "1176.60"
                     *               }
                     *             ]
                     *           },
                     *           "cash": {
                     *             "sessions": 2,
                     *             "open": 0,
                     *             "openingFloat": "300.00",
                     *             "expected": "1476.60",
                     *             "counted": "1475.10",
                     *             "discrepancy": "-1.50"
                     *           },
                     *           "digests": {
                     *             "sales": {
                     *               "count": 217,
                     *               "checksum": "4f6d1c9b2e8a7035d1e4b6a8c0f2e4d6b8a0c2e4f6a8b0d2c4e6f8a0b2d4c6e8"
                     *             },
                     *             "payments": {
                     *               "count": 219,
                     *               "checksum": "0b7e3a5c9d1f2e4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4a6c8e0a2c4e6a8c0e2a"
                     *             },
                     *             "cashMovements": {
                     *               "count": 74,
                     *               "checksum": "a3c5e7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5"
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "businessDate": "2026-03-08",
                     *           "sales": {
                     *             "completed": 0,
                     *             "returns": 0,
                     *             "voided": 0,
                     *             "gross": "0.00",
                     *             "net": "0.00",
                     *             "tax": "0.00",
                     *             "discount": "0.00",
                     *             "taxRates": []
                     *           },
                     *           "payments": {
                     *             "count": 0,
                     *             "amount": "0.00",
                     *             "methods": []
                     *           },
                     *           "cash": {
                     *             "sessions": 0,
                     *             "open": 0,
                     *             "openingFloat": "0.00",
                     *             "expected": "0.00",
                     *             "counted": "0.00",
                     *             "discrepancy": "0.00"
                     *           },
                     *           "digests": {
                     *             "sales": {
                     *               "count": 0,
                     *               "checksum": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *             },
                     *             "payments": {
                     *               "count": 0,
                     *               "checksum": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *             },
                     *             "cashMovements": {
                     *               "count": 0,
                     *               "checksum": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *             }
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["BusinessDays"];
                };
            };
            /** @description A query parameter is unknown, repeated, missing or malformed (not a date, an impossible date, To before From, more than 92 days, an unknown Version): `errors[]` names each one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:validation-error",
                     *       "title": "Your request parameters did not validate",
                     *       "status": 400,
                     *       "detail": "From: must be a date YYYY-MM-DD.",
                     *       "instance": "/api/v1.0/business-days",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59",
                     *       "errors": [
                     *         {
                     *           "field": "From",
                     *           "message": "must be a date YYYY-MM-DD"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Token missing, expired or invalid, or the Authorization header is not exactly `Bearer <token>`. Get a new token and retry once; stop if that fails too. */
            401: {
                headers: {
                    /** @description RFC 6750 challenge, e.g. `Bearer realm="pos-read-api", error="invalid_token"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:unauthorized",
                     *       "title": "Unauthorized",
                     *       "status": 401,
                     *       "detail": "The token has expired: request a new one from /api/v1.0/Token.",
                     *       "instance": "/api/v1.0/business-days",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token does not carry the ApiUser role. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:forbidden",
                     *       "title": "Forbidden",
                     *       "status": 403,
                     *       "detail": "The token does not carry the ApiUser role.",
                     *       "instance": "/api/v1.0/business-days",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Digests, day closes and the report share each instance fairly: DIGEST_MAX_IN_FLIGHT at once (4 by default), a user at most DIGEST_MAX_IN_FLIGHT_PER_USER running (2) and DIGEST_QUEUE_PER_USER waiting for a turn (4), a freed place to the waiting user running fewest; per user and minute, DIGEST_CALLS_PER_MINUTE calls (120) and DIGEST_ROWS_PER_MINUTE rows read (2000000; a digest from the cache reads almost none), counted across instances. 429 when the caller is past one of these, or waited half of the request's deadline for a turn; `detail` names the limit. Wait Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:too-many-requests",
                     *       "title": "Too many requests",
                     *       "status": 429,
                     *       "detail": "Digest limit exceeded (DIGEST_MAX_IN_FLIGHT_PER_USER, DIGEST_QUEUE_PER_USER): at most 2 digests running and 4 waiting per user; retry when one has been answered.",
                     *       "instance": "/api/v1.0/business-days",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unexpected error. Quote the requestId when reporting it. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:internal-error",
                     *       "title": "Internal Server Error",
                     *       "status": 500,
                     *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                     *       "instance": "/api/v1.0/business-days",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The service cannot serve anyone: the database, or the store that counts the calls and rows, is unreachable, 256 expensive reads of all users wait for a turn, or the database is too slow for the request's deadline; retry after Retry-After seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "urn:pos-read-api:problem:service-unavailable",
                     *       "title": "Service Unavailable",
                     *       "status": 503,
                     *       "detail": "The digest budget cannot be checked right now; retry shortly.",
                     *       "instance": "/api/v1.0/business-days",
                     *       "requestId": "5f0c6b1e-3a4d-4e8b-9c2a-7d1e0f3b6a59"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
}
