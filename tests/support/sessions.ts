import request from "supertest";
import { z } from "zod";
import { sql } from "../../src/platform/db/pool.ts";
import { testApp, testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";

type App = ReturnType<typeof testApp>;

/** A browser's view of a signed-in session: its cookie and CSRF token, and requests that carry them. */
export type TestSession = {
  cookie: string;
  token: string;
  csrf: string;
  id: string;
  /** A request with the session cookie, the CSRF token and the app's own Origin, in `world`. */
  send: (
    method: "get" | "post" | "patch" | "delete",
    path: string,
    options?: { world?: "test" | "live" },
  ) => request.Test;
};

export const TEST_ORIGIN = "http://localhost:8080";

/** Signs in through POST /v1/session and returns the session as a browser would hold it. */
export async function signIn(
  app: App,
  credentials: { email: string; password: string; kind?: "dashboard" | "till" },
): Promise<TestSession> {
  const response = await request(app).post("/v1/session").send(credentials).expect(201);
  const setCookie = String(response.headers["set-cookie"]);
  const cookie = setCookie.split(";")[0] ?? "";
  const session = {
    cookie,
    token: cookie.slice(cookie.indexOf("=") + 1),
    csrf: response.body.csrf_token as string,
    id: response.body.id as string,
  };
  return { ...session, send: sender(app, session) };
}

export function sender(app: App, session: { cookie: string; csrf: string }): TestSession["send"] {
  return (method, path, options = {}) =>
    request(app)
      [method](path)
      .set("Cookie", session.cookie)
      .set("Pos-Csrf-Token", session.csrf)
      .set("Origin", TEST_ORIGIN)
      .set("Pos-World", options.world ?? "test");
}

/**
 * A till as the counter holds it: paired by the owner's session (its step-up window open, as right
 * after sign-in) and opened with its device token, the only way a till session is made.
 */
export async function openTill(
  app: App,
  owner: TestSession,
  name = "Counter",
): Promise<TestSession & { deviceId: string }> {
  const paired = await owner.send("post", "/v1/till_devices").send({ name });
  if (paired.status !== 201) throw new Error(`till not paired: ${paired.status} ${JSON.stringify(paired.body)}`);
  const response = await request(app).post("/v1/session/device").send({ device_token: paired.body.token }).expect(201);
  const cookie = String(response.headers["set-cookie"]).split(";")[0] ?? "";
  const session = {
    cookie,
    token: cookie.slice(cookie.indexOf("=") + 1),
    csrf: response.body.csrf_token as string,
    id: response.body.id as string,
  };
  return { ...session, send: sender(app, session), deviceId: paired.body.id as string };
}

/**
 * A till's cashier (Ann, PIN 1234) switched in and a manager (Ben, PIN 5678) of the owner's shop:
 * `approval(action)` is Ben's PIN approving one request of the till (`Pos-Manager-Approval`'s token).
 */
export async function cashierAtTill(owner: TestSession, till: TestSession) {
  const cashier = await owner.send("post", "/v1/cashiers").send({ name: "Ann", pin: "1234" });
  const manager = await owner.send("post", "/v1/cashiers").send({ name: "Ben", pin: "5678", role: "manager" });
  const switched = await till.send("post", "/v1/session/cashier").send({ cashier_id: cashier.body.id, pin: "1234" });
  if (cashier.status !== 201 || manager.status !== 201 || switched.status !== 200) {
    throw new Error(`cashiers not set up: ${cashier.status} ${manager.status} ${switched.status}`);
  }
  return {
    cashierId: cashier.body.id as string,
    async approval(action: string): Promise<string> {
      const approval = await till
        .send("post", "/v1/session/manager_approvals")
        .send({ cashier_id: manager.body.id, pin: "5678", action });
      if (approval.status !== 201) throw new Error(`approval refused: ${approval.status}`);
      return approval.body.token as string;
    },
  };
}

export const PASSWORD = "correct horse battery";

/**
 * What the sessions test files share: a test database and an app for the file, one shop for all its
 * tests, and `count` (a SQL count, for asserting what was or was not written).
 */
export function sessionsTestWorld() {
  const world = {
    db: undefined as unknown as TestDatabase,
    app: undefined as unknown as App,
    shop: undefined as unknown as TestMerchant,
    count: (query: ReturnType<typeof sql.unsafe>) =>
      world.db.database.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT (${query})::integer AS n`),
  };
  beforeAll(async () => {
    world.db = await createTestDatabase();
    world.app = testApp({ database: world.db.database, config: testConfig(world.db.url) });
    world.shop = await newMerchant(world.db.database);
  });
  afterAll(() => world.db.close());
  return world;
}

/**
 * What the owner-facing test files share: a test database and an app for the file (its rate limit out
 * of the way), and for each test a fresh shop, its owner signed in and, with `till`, a paired till.
 * `beforeEach` runs before the shop is made (a file's own cleanup between tests).
 */
export function ownerTestWorld(
  options: {
    poolSize?: number;
    merchant?: Parameters<typeof newMerchant>[1];
    till?: boolean;
    beforeEach?: (database: TestDatabase) => Promise<void>;
  } = {},
) {
  const world = {
    db: undefined as unknown as TestDatabase,
    app: undefined as unknown as App,
    shop: undefined as unknown as TestMerchant,
    owner: undefined as unknown as TestSession,
    /** With `till`: the shop's paired till, opened afresh for each test (see `openTill`). */
    till: undefined as unknown as TestSession & { deviceId: string },
  };
  beforeAll(async () => {
    world.db = await createTestDatabase(options.poolSize === undefined ? {} : { poolSize: options.poolSize });
    world.app = testApp({
      database: world.db.database,
      config: testConfig(world.db.url, { RATE_LIMIT_REQUESTS: "10000" }),
    });
  });
  beforeEach(async () => {
    await options.beforeEach?.(world.db);
    world.shop = await newMerchant(world.db.database, options.merchant);
    world.owner = await signIn(world.app, { email: world.shop.email, password: PASSWORD });
    if (options.till) world.till = await openTill(world.app, world.owner);
  });
  afterAll(() => world.db.close());
  return world;
}
