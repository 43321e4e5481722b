-- Up Migration

-- The sales reports (issue 47) count refunds by when they were paid: a period's returns are read
-- through this range, as its sales are through sales_report_idx, so a report's cost follows its period
-- and not the table.
CREATE INDEX sale_returns_period_idx ON sale_returns (merchant_id, livemode, created_at);

-- Down Migration

DROP INDEX sale_returns_period_idx;
