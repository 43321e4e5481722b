import { z } from "zod";
import { countingDatabase } from "../../../tests/support/counting-database.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { sql } from "../../platform/db/pool.ts";
import { claimRequestOf } from "../../platform/idempotency/service.ts";
import { apiKeyAuthenticator, revokeApiKey, setStatus } from "./service.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

const rateLimit = { requests: 3, windowMs: 60_000 };
const claimOf = (key: string) => claimRequestOf({ key, method: "POST", path: "/v1/payments", body: { a: 1 } }, 30_000);

test("the requests of one moment are authenticated, rate limited and claimed by one statement, each with its own verdict", async () => {
  const busy = await newMerchant(db.database);
  const payer = await newMerchant(db.database);
  const revoked = await newMerchant(db.database);
  const suspended = await newMerchant(db.database);
  await revokeApiKey(db.database, { merchantId: revoked.id, id: revoked.testKeyId, livemode: null });
  await setStatus(db.database, suspended.id, "suspended");
  const counting = countingDatabase(db.database);
  const authenticate = apiKeyAuthenticator(counting.database, { rateLimit });

  const firstClaim = claimOf("same-key");
  const repeatedClaim = claimOf("same-key");
  const crossWorldClaim = claimOf("other-key");
  const verdicts = await Promise.all([
    // Five requests of a merchant with three free slots, test and live keys alike: the first three in.
    authenticate(busy.testKey),
    authenticate(busy.liveKey),
    authenticate(busy.testKey),
    authenticate(busy.testKey),
    authenticate(busy.liveKey),
    // Two requests with the same Idempotency-Key in one batch: the first claims it.
    authenticate(payer.liveKey, firstClaim),
    authenticate(payer.liveKey, repeatedClaim),
    authenticate(payer.testKey, crossWorldClaim),
    authenticate(`sk_test_${"Z".repeat(32)}`),
    authenticate(revoked.testKey),
    authenticate(suspended.liveKey),
  ]);
  expect(counting.statements()).toBe(1);

  expect(verdicts.map((verdict) => verdict.kind)).toEqual([
    "accepted",
    "accepted",
    "accepted",
    "rate_limited",
    "rate_limited",
    "accepted",
    "accepted",
    "accepted",
    "unknown",
    "revoked",
    "inactive",
  ]);
  const rate = verdicts.map((verdict) => ("rateLimit" in verdict ? verdict.rateLimit.remaining : null));
  expect(rate.slice(0, 8)).toEqual([2, 1, 0, 0, 0, 2, 1, 0]);
  const limited = verdicts[3];
  expect(limited?.kind === "rate_limited" && limited.rateLimit.resetMs).toBeGreaterThan(59_000);
  const tenants = verdicts.map((verdict) =>
    "tenant" in verdict ? [verdict.tenant.merchantId, verdict.tenant.livemode] : null,
  );
  expect(tenants.slice(0, 8)).toEqual([
    [busy.id, false],
    [busy.id, true],
    [busy.id, false],
    [busy.id, false],
    [busy.id, true],
    [payer.id, true],
    [payer.id, true],
    [payer.id, false],
  ]);
  expect(tenants[10]).toEqual([suspended.id, true]);
  const claimed = verdicts.map((verdict) => (verdict.kind === "accepted" ? verdict.claimed : null));
  expect(claimed.slice(5, 8)).toEqual([true, false, true]);

  const stored = await db.database.one(sql.type(
    z.object({ log: z.number(), busy_touched: z.number(), owners: z.array(z.string()) }),
  )`
    SELECT
      (SELECT cardinality(accepted_at) FROM rate_limit_windows WHERE merchant_id = ${busy.id}) AS log,
      (SELECT count(*)::int FROM api_keys WHERE merchant_id = ${busy.id} AND last_used_at IS NOT NULL) AS busy_touched,
      (SELECT array_agg(owner_token ORDER BY livemode) FROM idempotency_keys WHERE merchant_id = ${payer.id}) AS owners`);
  expect(stored).toEqual({
    log: 3,
    busy_touched: 2,
    owners: [crossWorldClaim.ownerToken, firstClaim.ownerToken],
  });

  // The window is full: the next moment's request is refused, and a refusal appends nothing.
  const next = await authenticate(busy.liveKey);
  expect(next.kind).toBe("rate_limited");
  expect(counting.statements()).toBe(2);
  expect(
    await db.database.oneFirst(sql.type(z.object({ log: z.number() }))`
      SELECT cardinality(accepted_at) AS log FROM rate_limit_windows WHERE merchant_id = ${busy.id}`),
  ).toBe(3);
});
