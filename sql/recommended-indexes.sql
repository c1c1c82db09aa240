-- Indexes the back-office DBA may add for the feeds (GET /sales/feed, /payments/feed,
-- /cash-movements/feed; docs/sync.md) and the reads by business date (BusinessDateFrom/To). The
-- back-office schema is given and the service never changes it: it works without these, and says
-- at start-up (a warning, "RecommendedIndexes") and in its readiness details
-- (`recommendedIndexes`) which of them are missing.
--
-- A feed reads one shop's rows in id order after a position. With (shop_code, id) that is one
-- index range of `Limit + 1` entries, whatever the page's depth and the other shops' volume.
-- Without it MariaDB/MySQL walks the primary key from the position and skips the rows of the
-- other shops, or sorts the shop's rows: the cost of a page grows with the number of shops, or
-- with the shop's size. Measured: docs/performance.md.
--
-- The reads by business date (BusinessDateFrom and BusinessDateTo: the lists, the digests, the
-- report) first find the time range of the dates' records: MIN and MAX of sold_at over the
-- shop's sales of those dates (the payments: through their sales). (shop_code, business_date,
-- sold_at) serves it, one index range covering the dates; without it MariaDB/MySQL reads every
-- sale of the shop for it (a first page, a digest's date). The walk itself reads the
-- (shop_code, time, id) index of the schema, as the other lists do; the cash movements and the
-- drawer sessions need no other index (src/wall/sql/business-date-range.ts).
--
-- Run as an account allowed to ALTER the back-office tables, on the primary (replicas follow):
--
--   mariadb -uroot backoffice < sql/recommended-indexes.sql
--
-- Online on InnoDB (ALGORITHM=INPLACE, LOCK=NONE): inserts go on while the index builds.

-- BEGIN generated from src/app.catalogue.ts by npm run sql:write: do not edit
CREATE INDEX ix_pos_sales_shop_id ON pos_sales (shop_code, id) ALGORITHM=INPLACE LOCK=NONE;
CREATE INDEX ix_pos_payments_shop_id ON pos_payments (shop_code, id) ALGORITHM=INPLACE LOCK=NONE;
CREATE INDEX ix_pos_cash_movements_shop_id ON pos_cash_movements (shop_code, id) ALGORITHM=INPLACE LOCK=NONE;
CREATE INDEX ix_pos_sales_shop_business_date ON pos_sales (shop_code, business_date, sold_at) ALGORITHM=INPLACE LOCK=NONE;
-- END generated
