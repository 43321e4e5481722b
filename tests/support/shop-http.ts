import { randomUUID } from "node:crypto";
import { DASHBOARD_PASSWORD } from "./dashboard-page.ts";

/**
 * The shop's sessions over real HTTP against a served platform, as a till or a second browser holds
 * them: the owner's dashboard session, a paired till's device session, a cashier switched in on it.
 * Browser tests set the scene with these, then look at what the dashboard shows.
 */
export type HttpSession = {
  /** A request with the session's cookie, CSRF token and the platform's own Origin; POSTs get an Idempotency-Key. */
  call: <T = Record<string, unknown>>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
    options?: { world?: "test" | "live" },
  ) => Promise<{ status: number; body: T }>;
};

async function sessionFrom(baseUrl: string, response: Response): Promise<HttpSession> {
  if (response.status !== 201) {
    throw new Error(`no session: ${response.status} ${await response.text()}`);
  }
  const cookie = (response.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  const { csrf_token: csrf } = (await response.json()) as { csrf_token: string };
  return {
    call: async (method, path, body, options = {}) => {
      const answer = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          cookie,
          origin: baseUrl,
          "pos-csrf-token": csrf,
          "pos-world": options.world ?? "test",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(method === "POST" ? { "idempotency-key": randomUUID() } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as never };
    },
  };
}

/** The owner signed in at the dashboard (its password just entered: pairing a till is allowed). */
export async function ownerSession(baseUrl: string, email: string): Promise<HttpSession> {
  const response = await fetch(`${baseUrl}/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email, password: DASHBOARD_PASSWORD }),
  });
  return sessionFrom(baseUrl, response);
}

/** Pairs a till as the owner and returns its device token (shown once by the API). */
export async function openTill(owner: HttpSession, name: string): Promise<{ id: string; token: string }> {
  const paired = await owner.call<{ id: string; token: string }>("POST", "/v1/till_devices", { name });
  if (paired.status !== 201) {
    throw new Error(`till not paired: ${paired.status} ${JSON.stringify(paired.body)}`);
  }
  return paired.body;
}

/** The answer of opening a till session with a device token (201 and a session, or the refusal). */
export function deviceSignIn(baseUrl: string, token: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/session/device`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ device_token: token }),
  });
}

/** A paired till's session, opened with its device token. */
export async function tillSession(baseUrl: string, token: string): Promise<HttpSession> {
  return sessionFrom(baseUrl, await deviceSignIn(baseUrl, token));
}

/** Creates a cashier as the owner. */
export async function createCashier(
  owner: HttpSession,
  name: string,
  pin: string,
  role: "cashier" | "manager" = "cashier",
): Promise<{ id: string }> {
  const created = await owner.call<{ id: string }>("POST", "/v1/cashiers", { name, pin, role });
  if (created.status !== 201) {
    throw new Error(`cashier not created: ${created.status} ${JSON.stringify(created.body)}`);
  }
  return created.body;
}

/** Asserts a 2xx answer and returns its body. */
export async function ok<T = Record<string, unknown>>(answer: Promise<{ status: number; body: T }>): Promise<T> {
  const { status, body } = await answer;
  if (status < 200 || status >= 300) {
    throw new Error(`refused: ${status} ${JSON.stringify(body)}`);
  }
  return body;
}

export type ShopDay = {
  owner: HttpSession;
  till: HttpSession;
  cashierId: string;
  /** The paired till's device id, which names its drawer (`till_id`), as the till app does. */
  tillId: string;
  shiftId: string;
  /** The three cash sales of the shift: USD 12.50 (one of its two loaves returned), USD 1.99, ZWG 30.00. */
  saleIds: [string, string, string];
};

export const SHOP_DAY_CASHIER = "Rudo Dube";
/** The name the day's till is paired under. */
export const SHOP_DAY_TILL = "Front counter";

/**
 * A day at a till, through the API as the till app makes it (TEST world): the owner pairs the till
 * and adds a cashier (a manager: the return, the pay-out and the close with a difference need one),
 * who switches in by PIN, opens the shift with a USD and a ZWG float, sells for
 * cash in both currencies, takes a loaf back, pays the cleaner out of the drawer and closes the shift
 * USD 0.50 short and ZWG 1.00 over.
 */
export async function shopDay(baseUrl: string, email: string): Promise<ShopDay> {
  const owner = await ownerSession(baseUrl, email);
  const cashier = await createCashier(owner, SHOP_DAY_CASHIER, "190734", "manager");
  const device = await openTill(owner, SHOP_DAY_TILL);
  const till = await tillSession(baseUrl, device.token);
  const tillId = device.id;
  await ok(till.call("POST", "/v1/session/cashier", { cashier_id: cashier.id, pin: "190734" }));
  const shift = await ok<{ id: string }>(
    till.call("POST", "/v1/shifts", {
      till_id: tillId,
      float: [
        { currency: "USD", amount_cents: 5_000 },
        { currency: "ZWG", amount_cents: 20_000 },
      ],
    }),
  );
  const sell = async (currency: "USD" | "ZWG", items: { name: string; qty: number; unit_cents: number }[]) =>
    (await ok<{ id: string }>(till.call("POST", "/v1/sales", { tender: "cash", currency, till_id: tillId, items }))).id;
  const saleIds: [string, string, string] = [
    await sell("USD", [{ name: "Bread", qty: 2, unit_cents: 625 }]),
    await sell("USD", [{ name: "Matches", qty: 1, unit_cents: 199 }]),
    await sell("ZWG", [{ name: "Sugar 2 kg", qty: 1, unit_cents: 3_000 }]),
  ];
  await ok(
    till.call("POST", `/v1/sales/${saleIds[0]}/returns`, {
      till_id: tillId,
      items: [{ line: 0, qty: 1 }],
      reason: "Stale",
    }),
  );
  await ok(
    till.call("POST", `/v1/shifts/${shift.id}/cash_moves`, {
      kind: "pay_out",
      currency: "ZWG",
      amount_cents: 500,
      reason: "Paid the cleaner",
    }),
  );
  // Expected: USD 50.00 + 12.50 + 1.99 − 6.25 = 58.24; ZWG 200.00 + 30.00 − 5.00 = 225.00.
  await ok(
    till.call("POST", `/v1/shifts/${shift.id}/close`, {
      counted: [
        { currency: "USD", amount_cents: 5_774 },
        { currency: "ZWG", amount_cents: 22_600 },
      ],
      note: "Coins short",
    }),
  );
  return { owner, till, cashierId: cashier.id, tillId, shiftId: shift.id, saleIds };
}
