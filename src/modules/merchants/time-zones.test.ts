import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import request from "supertest";
import { z } from "zod";
import { TEST_ADMIN_TOKEN, testApp, testConfig } from "../../../tests/support/app.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database.ts";
import { newMerchant } from "../../../tests/support/factories.ts";
import { migrationsDirectory } from "../../platform/db/migrate.ts";
import { sql } from "../../platform/db/pool.ts";

let db: TestDatabase;
let app: ReturnType<typeof testApp>;
const admin = `Bearer ${TEST_ADMIN_TOKEN}`;
const refusal = {
  error: {
    type: "invalid_request",
    code: "parameter_invalid",
    message: "timezone: expected an IANA time zone name such as Africa/Harare (no offsets, no legacy names)",
  },
};

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url) });
});
afterAll(() => db.close());

const storedZone = (merchantId: string) =>
  db.database.one(sql.type(z.object({ timezone: z.string(), updated_at: z.date() }))`
    SELECT timezone, updated_at FROM merchants WHERE id = ${merchantId}`);

const setZone = (merchantId: string, timezone: string) =>
  request(app).post(`/admin/v1/merchants/${merchantId}/timezone`).set("Authorization", admin).send({ timezone });

const report = (key: string) => request(app).get("/v1/sales/report").set("Authorization", `Bearer ${key}`);

/** Midnight starting today in `timeZone`, as Node's Intl reads the zone (not the code under test). */
function startOfToday(timeZone: string): string {
  const offsetMs = (instant: number) => {
    const name = new Intl.DateTimeFormat("en", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(instant)
      .find((part) => part.type === "timeZoneName")?.value;
    const [, sign, hours, minutes] = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name ?? "") ?? [];
    return sign === undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
  };
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    Date.now(),
  );
  const wallMidnight = Date.parse(`${day}T00:00:00Z`);
  const guess = wallMidnight - offsetMs(wallMidnight);
  return new Date(wallMidnight - offsetMs(guess)).toISOString();
}

test("this machine's premise: Intl knows US/Pacific-New and Canada/East-Saskatchewan, PostgreSQL does not", async () => {
  for (const name of ["US/Pacific-New", "Canada/East-Saskatchewan", "CAT", "+01:00"]) {
    expect(() => new Intl.DateTimeFormat("en", { timeZone: name })).not.toThrow();
  }
  const known = await db.database.anyFirst(sql.type(z.object({ name: z.string() }))`
    SELECT name FROM pg_timezone_names
    WHERE name IN ('US/Pacific-New', 'Canada/East-Saskatchewan', 'CAT', '+01:00', 'America/Los_Angeles')`);
  expect(known).toEqual(["America/Los_Angeles"]);
});

test("a time zone the database would read otherwise than Intl is refused, and nothing is written", async () => {
  const merchant = await newMerchant(db.database);
  const before = await storedZone(merchant.id);
  const refused = [
    "US/Pacific-New", // Intl only: dropped from PostgreSQL's tz database
    "Canada/East-Saskatchewan",
    "CAT", // Intl: Africa/Maputo; PostgreSQL: unknown
    "IST", // Intl: Asia/Kolkata; PostgreSQL: the abbreviation of Israel's +02
    "CET", // AT TIME ZONE reads the abbreviation, +01 all year; the zone has summer time
    "+01:00", // PostgreSQL reads offsets as POSIX: UTC-1
    "-05:00",
    "+0100",
    "Mars/Olympus_Mons",
    "not a time zone",
    "africa/harare", // both sides know it, but the stored spelling is PostgreSQL's
  ];
  for (const timezone of refused) {
    const response = await setZone(merchant.id, timezone);
    expect({ timezone, status: response.status, body: response.body }).toEqual({
      timezone,
      status: 400,
      body: refusal,
    });
  }
  expect(await storedZone(merchant.id)).toEqual(before);
});

test("creating a merchant with such a time zone is refused with no merchant, user or key written", async () => {
  const email = `legacy-${Date.now()}@example.com`;
  const count = sql.type(z.object({ count: z.number() }))`SELECT count(*)::integer AS count FROM merchants`;
  const merchantsBefore = await db.database.oneFirst(count);
  const response = await request(app)
    .post("/admin/v1/merchants")
    .set("Authorization", admin)
    .send({ name: "Legacy shop", email, password: "long enough pw", timezone: "US/Pacific-New" });
  expect(response.status).toBe(400);
  expect(response.body).toEqual(refusal);
  expect(await db.database.oneFirst(count)).toBe(merchantsBefore);
  const users = await db.database.anyFirst(sql.type(z.object({ id: z.string() }))`
    SELECT id FROM dashboard_users WHERE email = ${email}`);
  expect(users).toEqual([]);
});

test("names both sides read alike are accepted and used by the report", async () => {
  const merchant = await newMerchant(db.database);
  // EST and UTC are also PostgreSQL abbreviations, with the zone's one offset.
  for (const timezone of ["America/Los_Angeles", "UTC", "Etc/GMT-1", "EST", "Europe/Kyiv"]) {
    const response = await setZone(merchant.id, timezone);
    expect(response.status).toBe(200);
    expect(response.body.timezone).toBe(timezone);
    expect((await storedZone(merchant.id)).timezone).toBe(timezone);
    const today = await report(merchant.liveKey);
    expect(today.status).toBe(200);
    expect({ timezone, from: today.body.from }).toEqual({ timezone, from: startOfToday(timezone) });
  }
});

test("the migration moves stored zones the database cannot read alike to the zone receipts showed", async () => {
  const stored: [string, string][] = [
    ["US/Pacific-New", "America/Los_Angeles"],
    ["+01:00", "Etc/GMT-1"],
    ["-0500", "Etc/GMT+5"],
    ["cet", "Europe/Brussels"],
    ["africa/harare", "Africa/Harare"],
    ["+05:30", "Africa/Harare"],
    ["Europe/Kyiv", "Europe/Kyiv"],
  ];
  const merchants = await Promise.all(
    stored.map(async ([legacy]) => {
      const merchant = await newMerchant(db.database);
      await db.database.query(sql.unsafe`UPDATE merchants SET timezone = ${legacy} WHERE id = ${merchant.id}`);
      return merchant;
    }),
  );
  const legacyKey = merchants[0]?.liveKey ?? "";
  const offsetKey = merchants[1]?.liveKey ?? "";
  // The bug the migration repairs: PostgreSQL cannot compute "today" in US/Pacific-New.
  expect((await report(legacyKey)).status).toBe(500);

  const migration = await readFile(
    path.join(migrationsDirectory, "1764730000000_merchant_time_zones_read_alike.sql"),
    "utf8",
  );
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(`BEGIN; ${migration} COMMIT;`);
  } finally {
    await client.end();
  }

  const after = await Promise.all(merchants.map(async (merchant) => (await storedZone(merchant.id)).timezone));
  expect(after).toEqual(stored.map(([, zone]) => zone));
  const repaired = await report(legacyKey);
  expect(repaired.status).toBe(200);
  expect(repaired.body).toMatchObject({ timezone: "America/Los_Angeles", from: startOfToday("America/Los_Angeles") });
  // UTC+1, as the receipts (Node) drew it; PostgreSQL read "+01:00" as UTC-1.
  expect((await report(offsetKey)).body.from).toBe(startOfToday("+01:00"));
});
