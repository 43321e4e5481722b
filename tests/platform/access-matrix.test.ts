import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import request from "supertest";
import { sql } from "../../src/platform/db/pool.ts";
import { type Access, allows, type PrincipalName, principals, refusalCodes } from "../../src/platform/http/access.ts";
import type { AnyRoute } from "../../src/platform/http/route.ts";
import { SECURITY_DOC, securityDocWithTable } from "../../src/wiring/access-table.ts";
import { apiRoutes } from "../../src/wiring/api-routes.ts";
import { testApp, testConfig, testGateways } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";
import { openTill, signIn, TEST_ORIGIN, type TestSession } from "../support/sessions.ts";

/**
 * Every route × every principal against the route's declared access: a refused principal gets 401/403
 * with a refusal code before anything runs; an allowed one never does. Another merchant's owner, given
 * this merchant's object ids, never gets a 2xx. Public and operator routes are a closed list, so a
 * route added without saying who may call it fails here.
 */

const PASSWORD = "correct horse battery";
let db: TestDatabase;
let app: ReturnType<typeof testApp>;
/**
 * The routes as declared, for naming one test per route: the declarations do not depend on the
 * database (the requests go to `app`, built on the test database below).
 */
const routes: readonly AnyRoute[] = apiRoutes(testGateways(testConfig("postgres://127.0.0.1:5432/declarations-only")));

beforeAll(async () => {
  db = await createTestDatabase();
  const config = testConfig(db.url, { RATE_LIMIT_REQUESTS: "10000" });
  app = testApp({ database: db.database, config });
});
afterAll(() => db.close());

/** How a principal sends a request: a key, or a session's cookie with its CSRF token and world. */
type Caller = (method: AnyRoute["method"], url: string) => request.Test;

type Principals = Record<PrincipalName, Caller> & { otherOwner: Caller };

const byKey =
  (key: string): Caller =>
  (method, url) =>
    request(app)[method](url).set("Authorization", `Bearer ${key}`);

const bySession =
  (session: TestSession): Caller =>
  (method, url) =>
    request(app)
      [method](url)
      .set("Cookie", session.cookie)
      .set("Pos-Csrf-Token", session.csrf)
      .set("Origin", TEST_ORIGIN)
      .set("Pos-World", "test");

/** A shop with every kind of principal: keys, the owner (fresh and stale step-up), a till without anyone, a cashier and a manager switched in. */
async function shopPrincipals(): Promise<{
  shop: TestMerchant;
  principals: Principals;
  owner: TestSession;
  tillDevice: string;
}> {
  const shop = await newMerchant(db.database);
  const owner = await signIn(app, { email: shop.email, password: PASSWORD });
  const stale = await signIn(app, { email: shop.email, password: PASSWORD });
  await db.database.query(sql.unsafe`
    UPDATE sessions SET password_verified_at = now() - interval '1 hour' WHERE id = ${stale.id}`);
  const [till, cashierTill, managerTill] = await Promise.all(
    ["Counter 1", "Counter 2", "Counter 3"].map((name) => openTill(app, owner, name)),
  );
  if (till === undefined || cashierTill === undefined || managerTill === undefined) throw new Error("tills");
  const cashier = (await owner.send("post", "/v1/cashiers").send({ name: "Tendai", pin: "4821" }).expect(201)).body;
  const manager = (await owner.send("post", "/v1/cashiers").send({ name: "Rudo", pin: "190734" }).expect(201)).body;
  await db.database.query(sql.unsafe`UPDATE cashiers SET role = 'manager' WHERE id = ${manager.id}`);
  await cashierTill.send("post", "/v1/session/cashier").send({ cashier_id: cashier.id, pin: "4821" }).expect(200);
  await managerTill.send("post", "/v1/session/cashier").send({ cashier_id: manager.id, pin: "190734" }).expect(200);
  const other = await newMerchant(db.database);
  const otherOwner = await signIn(app, { email: other.email, password: PASSWORD });
  return {
    shop,
    owner,
    tillDevice: till.deviceId,
    principals: {
      test_key: byKey(shop.testKey),
      live_key: byKey(shop.liveKey),
      owner: bySession(owner),
      owner_stale_step_up: bySession(stale),
      till: bySession(till),
      cashier: bySession(cashierTill),
      manager: bySession(managerTill),
      otherOwner: bySession(otherOwner),
    },
  };
}

/** One object of each kind the routes name by id, all the shop's, for the other merchant's owner to reach for. */
async function shopObjects(
  shop: TestMerchant,
  owner: TestSession,
  tillDevice: string,
): Promise<Record<string, string>> {
  const key = byKey(shop.testKey);
  const payment = await key("post", "/v1/payments").set("Idempotency-Key", randomUUID()).send({ amount_cents: 500 });
  const product = await key("post", "/v1/products").send({ name: "Bread", price_cents: 100 });
  const endpoint = await key("post", "/v1/webhook_endpoints").send({ url: "http://127.0.0.1:9/hooks" });
  const sale = await key("post", "/v1/sales")
    .set("Idempotency-Key", randomUUID())
    .send({ tender: "cash", items: [{ product_id: product.body.id, qty: 1 }] });
  const shift = await key("post", "/v1/shifts")
    .set("Idempotency-Key", randomUUID())
    .send({ till_id: "till-matrix", float: [] });
  const events = await key("get", "/v1/events");
  const deliveries = await key("get", `/v1/webhook_endpoints/${endpoint.body.id}/deliveries`);
  const cashiers = await owner.send("get", "/v1/cashiers");
  for (const created of [payment, product, endpoint, sale, shift]) {
    if (created.status !== 201) throw new Error(`fixture not made: ${JSON.stringify(created.body)}`);
  }
  return {
    payments: payment.body.id,
    products: product.body.id,
    webhook_endpoints: endpoint.body.id,
    sales: sale.body.id,
    shifts: shift.body.id,
    events: events.body.data[0]?.id ?? "evt_none",
    webhook_deliveries: deliveries.body.data[0]?.id ?? "whd_none",
    api_keys: shop.testKeyId,
    sessions: owner.id,
    till_devices: tillDevice,
    cashiers: cashiers.body.data[0]?.id ?? "csh_none",
  };
}

/** The route's path with its ids: the shop's own objects (by the segment before each `:param`), or unknown ones. */
function urlOf(route: AnyRoute, objects: Record<string, string> | undefined): string {
  return route.path.replace(/([a-z_]+)\/:([a-z_]+)/g, (_match, collection: string, _param: string) => {
    const id = objects?.[collection] ?? `${collection}_missing0000`;
    return `${collection}/${id}`;
  });
}

const refused = (response: request.Response) =>
  (response.status === 401 || response.status === 403) &&
  (refusalCodes as readonly string[]).includes(response.body?.error?.code);

/** Routes that end the caller's own session or switch its cashier out: they run last, each with fresh principals. */
const SESSION_ENDING = new Set(["signOut", "signOutEverywhere", "switchCashierOut"]);

const call = (caller: Caller, route: AnyRoute, url: string) => {
  const pending = caller(route.method, url);
  if (route.idempotent !== undefined && route.idempotent !== false) pending.set("Idempotency-Key", randomUUID());
  return route.method === "get" || route.method === "delete" ? pending : pending.send({});
};

async function checkRoute(route: AnyRoute, everyone: Principals, objects: Record<string, string>): Promise<string[]> {
  const access = route.auth;
  if (typeof access !== "object") return [];
  const wrong: string[] = [];
  // Mutations by the shop's own principals name unknown ids (an allowed one then answers 404), so the
  // walk changes nothing the later principals depend on; reads name the shop's objects.
  const ownUrl = urlOf(route, route.method === "get" ? objects : undefined);
  for (const principal of principals) {
    const response = await call(everyone[principal], route, ownUrl);
    const expectedRefusal = !allows(access, principal);
    if (expectedRefusal !== refused(response)) {
      wrong.push(
        `${route.method.toUpperCase()} ${route.path} as ${principal}: ${response.status} ${response.body?.error?.code ?? ""}`,
      );
    }
  }
  if (access.owner !== undefined && route.path.includes("/:")) {
    const response = await call(everyone.otherOwner, route, urlOf(route, objects));
    if (response.status < 300) {
      wrong.push(`${route.method.toUpperCase()} ${route.path} reached another merchant's object: ${response.status}`);
    }
  }
  return wrong;
}

const merchantRoutes = routes.filter((route) => typeof route.auth === "object");
const named = (list: readonly AnyRoute[]) =>
  list.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const);

/** One shop with every principal, shared by the routes that end no session (each its own test). */
let shared: { everyone: Principals; objects: Record<string, string> } | undefined;
async function sharedShop() {
  if (shared === undefined) {
    const { shop, principals: everyone, owner, tillDevice } = await shopPrincipals();
    shared = { everyone, objects: await shopObjects(shop, owner, tillDevice) };
  }
  return shared;
}

// One test per route, so that a slow machine's time limit is a route's, not the whole walk's.
test.each(named(merchantRoutes.filter((candidate) => !SESSION_ENDING.has(candidate.operationId))))(
  "%s answers every principal as its declared access says",
  async (_name, route) => {
    const { everyone, objects } = await sharedShop();
    expect(await checkRoute(route, everyone, objects)).toEqual([]);
  },
);

// One fresh shop per session-ending route; the owner's own calls go last (signing out everywhere ends
// the other principals' sessions too).
const ownersLast = [...principals.filter((name) => !name.startsWith("owner")), "owner_stale_step_up", "owner"] as const;
test.each(named(merchantRoutes.filter((candidate) => SESSION_ENDING.has(candidate.operationId))))(
  "%s (it ends sessions) answers every principal as its declared access says",
  async (_name, route) => {
    const fresh = await shopPrincipals();
    const wrong: string[] = [];
    for (const principal of ownersLast) {
      const response = await call(fresh.principals[principal], route, urlOf(route, undefined));
      if (allows(route.auth as Access, principal) === refused(response)) {
        wrong.push(`${route.method.toUpperCase()} ${route.path} as ${principal}: ${response.status}`);
      }
    }
    expect(wrong).toEqual([]);
  },
);

test("a till is never signed in with a password", async () => {
  const shop = await newMerchant(db.database);
  const response = await request(app).post("/v1/session").send({ email: shop.email, password: PASSWORD, kind: "till" });
  expect([response.status, response.body.error.code]).toEqual([403, "till_device_required"]);
  expect(
    await db.database.oneFirst(sql.unsafe`SELECT count(*)::integer FROM sessions WHERE merchant_id = ${shop.id}`),
  ).toBe(0);
});

/** The routes nobody signs in for, and the operator's: adding one means adding it here, on purpose. */
const PUBLIC_ROUTES = [
  "POST /v1/session",
  "POST /v1/session/device",
  "GET /receipts/assets/print.js",
  "GET /receipts/assets/:file",
  "GET /receipts/:token/qr.png",
  "GET /receipts/:token",
  "GET /checkout/:id",
  "GET /checkout/:id/status",
  "POST /checkout/:id/mockpay",
  "POST /checkout/:id/cancel",
  "GET /static/:file",
  "GET /assets/:file",
  "GET /dashboard",
  "GET /dashboard/:page",
  "GET /dashboard/:section/:page",
  "GET /till",
  "GET /till/sw.js",
  "GET /till/:page",
];

test("public routes are exactly the known list; operator routes are all under /admin/v1", () => {
  const named = (auth: string) =>
    routes.filter((route) => route.auth === auth).map((route) => `${route.method.toUpperCase()} ${route.path}`);
  expect(named("none").sort()).toEqual([...PUBLIC_ROUTES].sort());
  expect(named("admin").every((route) => route.split(" ")[1]?.startsWith("/admin/v1/"))).toBe(true);
});

test(`${SECURITY_DOC}'s route table is the routes' declared access`, async () => {
  const page = await readFile(path.join(import.meta.dirname, "..", "..", SECURITY_DOC), "utf8");
  expect(page === securityDocWithTable(page) ? "current" : "stale: run npm run security:write").toBe("current");
});
