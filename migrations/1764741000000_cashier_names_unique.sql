-- Up Migration

-- A cashier's name is what the PIN screen, the Z report and the audit log show: two cashiers of one
-- shop with the same name (case and outer spaces aside) could not be told apart, so the second is
-- refused (409 `cashier_name_taken`). Names already doubled get " (2)", " (3)"… so the index builds.
UPDATE cashiers AS doubled
SET name = doubled.name || ' (' || ranked.n || ')'
FROM (
  SELECT merchant_id, id,
    row_number() OVER (PARTITION BY merchant_id, lower(btrim(name)) ORDER BY created_at, id) AS n
  FROM cashiers
) AS ranked
WHERE ranked.merchant_id = doubled.merchant_id AND ranked.id = doubled.id AND ranked.n > 1;

CREATE UNIQUE INDEX cashiers_name_unique ON cashiers (merchant_id, lower(btrim(name)));
