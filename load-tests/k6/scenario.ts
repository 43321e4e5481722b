// k6 run -e SCENARIO=rate-limit-over -e BASE_URL=https://pos.example.com -e KEYS=sk_test_a,sk_test_b load-tests/k6/scenario.ts
// The same scenario definitions as the Node runner (../scenarios.json), for operators who run k6.
// k6 drives a webhook storm (paid_payment) but cannot receive it: register the merchants' endpoints at
// a sink of yours beforehand and read the delivery side from pos_webhook_delivery_attempts_total, or
// run the storm with the Node runner, which hosts the sink and checks every signature.
import { check } from "k6";
import http from "k6/http";
import { Counter, Rate } from "k6/metrics";

type Scenario = {
  request: "me" | "create_payment" | "paid_payment" | "cash_sale";
  ratePerSecond: number;
  durationSeconds: number;
  expect: { minRefusedRatio?: number; maxRefusedRatio?: number; maxErrorRatio?: number };
};

const scenarios = JSON.parse(open("../scenarios.json")) as Record<string, Scenario>;
const name = __ENV.SCENARIO ?? "rate-limit-within";
const scenario = scenarios[name];
if (scenario === undefined) {
  throw new Error(`unknown scenario ${name}`);
}
const baseUrl = __ENV.BASE_URL ?? "http://localhost:8080";
const keys = (__ENV.KEYS ?? "").split(",").filter((key) => key !== "");

const refused = new Rate("refused");
const refusedWithoutRetryAfter = new Counter("refused_without_retry_after");

const thresholds: Record<string, string[]> = { refused_without_retry_after: ["count==0"] };
const refusedBounds = [
  ...(scenario.expect.minRefusedRatio === undefined ? [] : [`rate>=${scenario.expect.minRefusedRatio}`]),
  ...(scenario.expect.maxRefusedRatio === undefined ? [] : [`rate<=${scenario.expect.maxRefusedRatio}`]),
];
if (refusedBounds.length > 0) {
  thresholds.refused = refusedBounds;
}
if (scenario.expect.maxErrorRatio !== undefined) {
  thresholds.http_req_failed = [`rate<=${scenario.expect.maxErrorRatio}`];
}

export const options = {
  scenarios: {
    [name]: {
      executor: "constant-arrival-rate",
      rate: scenario.ratePerSecond,
      timeUnit: "1s",
      duration: `${scenario.durationSeconds}s`,
      preAllocatedVUs: Math.ceil(scenario.ratePerSecond),
      maxVUs: Math.ceil(scenario.ratePerSecond * 5),
    },
  },
  thresholds,
};

function createPayment(headers: Record<string, string>) {
  return http.post(
    `${baseUrl}/v1/payments`,
    JSON.stringify({ amount_cents: 100 + Math.floor(Math.random() * 10_000) }),
    {
      headers: { ...headers, "content-type": "application/json", "idempotency-key": `${__VU}-${__ITER}-${Date.now()}` },
      responseCallback: http.expectedStatuses(201, 429),
    },
  );
}

// cash_sale sells the catalog products listed in PRODUCTS (ids of the keys' merchants, in KEYS order,
// three per merchant, separated by commas): create them once with POST /v1/products.
const products = (__ENV.PRODUCTS ?? "").split(",").filter((id) => id !== "");

function send(headers: Record<string, string>, keyIndex: number) {
  switch (scenario?.request) {
    case "cash_sale":
      return http.post(
        `${baseUrl}/v1/sales`,
        JSON.stringify({
          tender: "cash",
          items: products.slice(keyIndex * 3, keyIndex * 3 + 3).map((id) => ({ product_id: id, qty: 1 })),
        }),
        {
          headers: {
            ...headers,
            "content-type": "application/json",
            "idempotency-key": `${__VU}-${__ITER}-${Date.now()}`,
          },
          responseCallback: http.expectedStatuses(201, 429),
        },
      );
    case "me":
      return http.get(`${baseUrl}/v1/me`, { headers, responseCallback: http.expectedStatuses(200, 429) });
    case "paid_payment": {
      const created = createPayment(headers);
      if (created.status !== 201) {
        return created;
      }
      const id = (created.json() as { id: string }).id;
      return http.post(`${baseUrl}/checkout/${id}/mockpay`, null, { responseCallback: http.expectedStatuses(200) });
    }
    default:
      return createPayment(headers);
  }
}

export default function (): void {
  const keyIndex = Math.floor(Math.random() * keys.length);
  const response = send({ authorization: `Bearer ${keys[keyIndex] ?? ""}` }, keyIndex);
  refused.add(response.status === 429);
  if (response.status === 429 && response.headers["Retry-After"] === undefined) {
    refusedWithoutRetryAfter.add(1);
  }
  check(response, {
    "answered 2xx or 429": (answer) => answer.status === 429 || (answer.status >= 200 && answer.status < 300),
  });
}
