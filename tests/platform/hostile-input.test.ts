import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { sql } from "../../src/platform/db/pool.ts";
import { serve, testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";
import { envelopeOf, moneyTableCounts, sendOverSocket, sendRaw } from "./hostile-requests.ts";

/**
 * One example per family of hostile input that once answered 500 or slipped through, so that a
 * regression names its family. Every refusal must be a 4xx with the envelope and write nothing.
 * The generated counterpart is request-fuzz.test.ts.
 */

let db: TestDatabase;
let served: Awaited<ReturnType<typeof serve>>;
let port: number;
let shop: TestMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  const config = testConfig(db.url, { RATE_LIMIT_REQUESTS: "10000" });
  served = await serve(testApp({ database: db.database, config }));
  port = Number(new URL(served.baseUrl).port);
  shop = await newMerchant(db.database);
});
afterAll(async () => {
  await served.close();
  await db.close();
});

let countsBefore: Record<string, number>;
let idempotencyKeysBefore: number;
const idempotencyKeyCount = () => db.database.oneFirst(sql.unsafe`SELECT count(*)::int FROM idempotency_keys`);
beforeEach(async () => {
  countsBefore = await moneyTableCounts(db.database);
  idempotencyKeysBefore = Number(await idempotencyKeyCount());
});

let keySequence = 0;
function authorized(extra: Record<string, string> = {}) {
  keySequence += 1;
  return { Authorization: `Bearer ${shop.testKey}`, "Idempotency-Key": `hostile-${keySequence}`, ...extra };
}
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const validPayment = { amount_cents: 150, currency: "USD", narration: "Hostile input" };

/** The answer is `status` with the envelope's `code`, and no table (idempotency keys included) grew. */
async function expectRefused(
  answer: { status: number; text: string },
  expected: { status: number; code: string; message?: RegExp },
) {
  expect({ status: answer.status, code: envelopeOf(answer.text)?.error.code }).toEqual({
    status: expected.status,
    code: expected.code,
  });
  if (expected.message !== undefined) {
    expect(envelopeOf(answer.text)?.error.message).toMatch(expected.message);
  }
  expect(await moneyTableCounts(db.database)).toEqual(countsBefore);
  expect(Number(await idempotencyKeyCount())).toBe(idempotencyKeysBefore);
}

const postPayment = (body: Buffer | string, headers: Record<string, string> = {}) =>
  sendRaw(served.baseUrl, {
    method: "POST",
    path: "/v1/payments",
    headers: authorized({ "Content-Type": "application/json", ...headers }),
    body,
  });

describe("a Content-Encoding that lies about the body", () => {
  test.each(["gzip", "deflate", "br"])("%s over plain JSON is 400 invalid_encoding", async (encoding) => {
    const answer = await postPayment(json(validPayment), { "Content-Encoding": encoding });
    await expectRefused(answer, { status: 400, code: "invalid_encoding", message: new RegExp(encoding) });
  });

  test("a PATCH with a lying gzip body is 400 invalid_encoding", async () => {
    const answer = await sendRaw(served.baseUrl, {
      method: "PATCH",
      path: "/v1/products/prd_000000000000000000000000",
      headers: authorized({ "Content-Type": "application/json", "Content-Encoding": "gzip" }),
      body: "\x1f\x8b not really gzip",
    });
    await expectRefused(answer, { status: 400, code: "invalid_encoding" });
  });

  test("bytes that are not UTF-8 are 400 invalid_encoding", async () => {
    const body = Buffer.concat([
      Buffer.from('{"amount_cents":150,"narration":"'),
      Buffer.from([0xc0, 0xae]),
      Buffer.from('"}'),
    ]);
    await expectRefused(await postPayment(body), { status: 400, code: "invalid_encoding" });
  });

  test("a charset other than UTF-8 is 415 unsupported_encoding", async () => {
    const answer = await postPayment(Buffer.from(JSON.stringify(validPayment), "utf16le"), {
      "Content-Type": "application/json; charset=utf-16le",
    });
    await expectRefused(answer, { status: 415, code: "unsupported_encoding" });
  });

  test.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ] as const)("a truthful %s body is accepted", async (encoding, compress) => {
    const answer = await postPayment(compress(json(validPayment)), { "Content-Encoding": encoding });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toMatchObject({ object: "payment", amount_cents: 150 });
  });
});

describe("malformed percent-encoding", () => {
  test.each([
    "/v1/payments/%zz",
    "/v1/payments/%",
    "/v1/payments/%ff%fe",
    "/v1/payments/%C0%AE",
    "/v1/payments/%ED%A0%80",
  ])("path %s is 400 invalid_path", async (path) => {
    const answer = await sendRaw(served.baseUrl, { method: "GET", path, headers: authorized() });
    await expectRefused(answer, { status: 400, code: "invalid_path" });
  });

  test("a POST to a malformed path is refused before anything is written", async () => {
    const answer = await sendRaw(served.baseUrl, {
      method: "POST",
      path: "/v1/webhook_deliveries/%E0%A4%A/retry",
      headers: authorized({ "Content-Type": "application/json" }),
      body: "{}",
    });
    await expectRefused(answer, { status: 400, code: "invalid_path" });
  });

  test.each(["status=%zz", "merchant_ref=%ff", "limit=1&cursor=%C0%AE", "%=1"])(
    "query %s is 400 invalid_query",
    async (query) => {
      const answer = await sendRaw(served.baseUrl, {
        method: "GET",
        path: `/v1/payments?${query}`,
        headers: authorized(),
      });
      await expectRefused(answer, { status: 400, code: "invalid_query" });
    },
  );

  test("well-formed escapes still work", async () => {
    const answer = await sendRaw(served.baseUrl, {
      method: "GET",
      path: "/v1/payments?merchant_ref=caf%C3%A9%20%2B%201&limit=2",
      headers: authorized(),
    });
    expect(answer.status).toBe(200);
  });
});

describe("NUL, control characters and lone surrogates", () => {
  test("a NUL in a path id is 400 invalid_path", async () => {
    const answer = await sendRaw(served.baseUrl, {
      method: "GET",
      path: "/v1/payments/pay_%00x",
      headers: authorized(),
    });
    await expectRefused(answer, { status: 400, code: "invalid_path", message: /U\+0000/ });
  });

  test("a NUL in a query value is 400 invalid_characters naming the parameter", async () => {
    const answer = await sendRaw(served.baseUrl, {
      method: "GET",
      path: "/v1/payments?merchant_ref=a%00b",
      headers: authorized(),
    });
    await expectRefused(answer, { status: 400, code: "invalid_characters", message: /query\.merchant_ref/ });
  });

  test.each([
    ["a NUL in a string", { ...validPayment, narration: "a\u0000b" }, /body\.narration.*U\+0000/],
    ["a NUL in a metadata value", { ...validPayment, metadata: { note: "\u0000" } }, /body\.metadata\.note/],
    ["a NUL in a metadata key", { ...validPayment, metadata: { "k\u0000": "v" } }, /body\.metadata: a key/],
    ["an escape character", { ...validPayment, merchant_ref: "\u001b[31mred" }, /U\+001B/],
    ["a C1 control character", { ...validPayment, narration: "\u0085" }, /U\+0085/],
    ["a DEL", { ...validPayment, narration: "\u007f" }, /U\+007F/],
  ])("%s is 400 invalid_characters naming the field", async (_name, body, message) => {
    await expectRefused(await postPayment(json(body)), { status: 400, code: "invalid_characters", message });
  });

  test("a lone surrogate is 400 invalid_characters", async () => {
    // JSON.stringify would escape it as \ud800 as well; written by hand to be sure of the bytes.
    const body = '{"amount_cents":150,"narration":"x\\ud800y"}';
    await expectRefused(await postPayment(body), {
      status: 400,
      code: "invalid_characters",
      message: /body\.narration.*surrogate/,
    });
  });

  test("tabs and line breaks are text, and a surrogate pair is a character", async () => {
    const answer = await postPayment(json({ ...validPayment, narration: "Line one\r\n\tline two 💳" }));
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text).narration).toBe("Line one\r\n\tline two 💳");
  });

  test("a forged cursor holding a NUL is 400 parameter_invalid", async () => {
    const cursor = Buffer.from(JSON.stringify(["2026-01-01T00:00:00.000Z", "pay_\u0000"])).toString("base64url");
    const answer = await sendRaw(served.baseUrl, {
      method: "GET",
      path: `/v1/payments?cursor=${cursor}`,
      headers: authorized(),
    });
    await expectRefused(answer, { status: 400, code: "parameter_invalid", message: /cursor/ });
  });
});

describe("JSON that parses but must not be guessed at", () => {
  test("a repeated key is 400 invalid_json naming it", async () => {
    const body = '{"amount_cents":150,"currency":"USD","amount_cents":150000}';
    await expectRefused(await postPayment(body), { status: 400, code: "invalid_json", message: /"amount_cents"/ });
  });

  test("a repeated key spelled with an escape is still repeated", async () => {
    const body = '{"amount_cents":150,"\\u0061mount_cents":150000}';
    await expectRefused(await postPayment(body), { status: 400, code: "invalid_json", message: /"amount_cents"/ });
  });

  test("the same key in two objects is fine", async () => {
    const body = '{"amount_cents":150,"metadata":{"amount_cents":1}}';
    expect((await postPayment(body)).status).toBe(201);
  });

  test("nesting deeper than 32 levels is 400 invalid_json", async () => {
    const body = `{"amount_cents":150,"metadata":{"a":${"[".repeat(40_000)}${"]".repeat(40_000)}}}`;
    await expectRefused(await postPayment(body), { status: 400, code: "invalid_json", message: /nested deeper/ });
  });

  test("a number beyond a double's range is 400 parameter_invalid naming the field", async () => {
    const body = '{"amount_cents":150,"metadata":{"big":-1e400}}';
    await expectRefused(await postPayment(body), { status: 400, code: "parameter_invalid", message: /metadata\.big/ });
  });

  test.each(["9007199254740993", "1e21", "-9007199254740993"])(
    "amount_cents %s (past 2^53) is 400 invalid_amount",
    async (amount) => {
      const body = `{"amount_cents":${amount},"currency":"USD"}`;
      const answer = await postPayment(body);
      // 400 and stored for replay like any validation error of a money POST; nothing else is written.
      expect({ status: answer.status, code: envelopeOf(answer.text)?.error.code }).toEqual({
        status: 400,
        code: "invalid_amount",
      });
      expect(await moneyTableCounts(db.database)).toEqual(countsBefore);
    },
  );
});

describe("what Node's HTTP parser refuses is answered with the envelope", () => {
  const request = (headers: string) =>
    `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.testKey}\r\n${headers}\r\n`;

  test("headers above the size limit are 431 headers_too_large", async () => {
    const answer = await sendOverSocket(port, request(`X-Padding: ${"a".repeat(20_000)}\r\n`));
    expect({ status: answer.status, code: envelopeOf(answer.body)?.error.code }).toEqual({
      status: 431,
      code: "headers_too_large",
    });
  });

  test.each([
    ["two different Content-Lengths", "Content-Length: 2\r\nContent-Length: 3\r\n"],
    ["Content-Length with Transfer-Encoding", "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n"],
    ["a NUL in a header value", "Idempotency-Key: a\u0000b\r\n"],
    ["a control character in a header value", "Idempotency-Key: a\u0001b\r\n"],
  ])("%s is 400 invalid_http_request", async (_name, headers) => {
    const answer = await sendOverSocket(port, request(headers));
    expect({ status: answer.status, code: envelopeOf(answer.body)?.error.code }).toEqual({
      status: 400,
      code: "invalid_http_request",
    });
    expect(await moneyTableCounts(db.database)).toEqual(countsBefore);
  });

  test("a repeated Content-Type: the first one is read", async () => {
    const body = JSON.stringify(validPayment);
    const answer = await sendOverSocket(
      port,
      `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.testKey}\r\n` +
        `Idempotency-Key: hostile-content-type\r\nContent-Type: text/plain\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    // text/plain is not parsed: the body is missing, a 400 stored for its key like any validation error.
    expect({ status: answer.status, code: envelopeOf(answer.body)?.error.code }).toEqual({
      status: 400,
      code: "parameter_missing",
    });
    expect(await moneyTableCounts(db.database)).toEqual(countsBefore);
  });
});

describe("a request received whole is answered before the bytes after it are refused", () => {
  const paymentRequest = (key: string, connection = "keep-alive") => {
    const body = JSON.stringify(validPayment);
    return (
      `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.testKey}\r\n` +
      `Idempotency-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: ${connection}\r\n\r\n${body}`
    );
  };
  const lastBody = (text: string) => text.slice(text.lastIndexOf("\r\n\r\n") + 4);

  test.each([
    ["bytes that are not HTTP", "GARBAGE\r\n\r\n", 400, "invalid_http_request"],
    [
      "headers above the size limit",
      `GET /v1/me HTTP/1.1\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
      "headers_too_large",
    ],
    [
      "two Content-Lengths",
      "GET /v1/me HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
      400,
      "invalid_http_request",
    ],
  ])("a payment followed by %s: its 201, then the refusal", async (_name, after, status, code) => {
    keySequence += 1;
    const answer = await sendOverSocket(port, paymentRequest(`pipelined-${keySequence}`) + after);
    expect(answer.statuses).toEqual([201, status]);
    expect(envelopeOf(lastBody(answer.body))?.error.code).toBe(code);
    expect((await moneyTableCounts(db.database)).payments).toBe((countsBefore.payments ?? 0) + 1);
  });

  test("pipelined payments before refused bytes are each answered, in order", async () => {
    keySequence += 1;
    const answer = await sendOverSocket(
      port,
      `${paymentRequest(`pipelined-a-${keySequence}`)}${paymentRequest(`pipelined-b-${keySequence}`)}\u0001\r\n\r\n`,
    );
    expect(answer.statuses).toEqual([201, 201, 400]);
    expect((await moneyTableCounts(db.database)).payments).toBe((countsBefore.payments ?? 0) + 2);
  });

  test("after a response that closes the connection, nothing more is said", async () => {
    const answer = await sendOverSocket(
      port,
      `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.testKey}\r\nConnection: close\r\n\r\nGARBAGE\r\n\r\n`,
    );
    expect(answer.statuses).toEqual([200]);
  });

  test("a body the parser refuses midway is the request refused, and nothing is written", async () => {
    keySequence += 1;
    const answer = await sendOverSocket(
      port,
      `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.testKey}\r\n` +
        `Idempotency-Key: chunked-${keySequence}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `5\r\n{"amo\r\nzz\r\n`,
    );
    expect(answer.statuses).toEqual([400]);
    expect(envelopeOf(answer.body)?.error.code).toBe("invalid_http_request");
    expect(await moneyTableCounts(db.database)).toEqual(countsBefore);
  });
});

describe("what Node answers on its own is answered with the envelope", () => {
  test.each([
    ["an HTTP/1.1 request without Host", 400, "invalid_http_request", "GET /v1/me HTTP/1.1\r\n\r\n"],
    [
      "an Expect other than 100-continue",
      417,
      "expectation_failed",
      "POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}",
    ],
    ["CONNECT", 400, "invalid_http_request", "CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n"],
  ])("%s is %i %s, and the connection closes", async (_name, status, code, bytes) => {
    const answer = await sendOverSocket(port, bytes);
    expect(answer.statuses).toEqual([status]);
    expect(envelopeOf(answer.body)?.error.code).toBe(code);
    expect(await moneyTableCounts(db.database)).toEqual(countsBefore);
  });

  test("HTTP/1.0 needs no Host", async () => {
    const answer = await sendOverSocket(port, `GET /v1/me HTTP/1.0\r\nAuthorization: Bearer ${shop.testKey}\r\n\r\n`);
    expect(answer.statuses).toEqual([200]);
  });
});

describe("time filters and periods", () => {
  const get = (path: string) => sendRaw(served.baseUrl, { method: "GET", path, headers: authorized() });

  test.each([
    ["/v1/payments?from=0000-01-01", /from/],
    ["/v1/ledger?to=9999-12-31T23:00:00-14:00", /to/],
    ["/v1/statement.csv?from=0000-06-01T00:00:00Z", /from/],
  ])("%s (PostgreSQL has no such instant) is 400 parameter_invalid", async (path, message) => {
    await expectRefused(await get(path), { status: 400, code: "parameter_invalid", message });
  });

  test("a forged cursor naming year 0000 is 400 parameter_invalid", async () => {
    const cursor = Buffer.from(JSON.stringify(["0000-01-01T00:00:00.000Z", "pay_x"])).toString("base64url");
    await expectRefused(await get(`/v1/payments?cursor=${cursor}`), { status: 400, code: "parameter_invalid" });
  });

  test.each([
    ["/v1/statement.csv?from=2026-02-01&to=2026-01-01", /from must be before to/],
    ["/v1/statement.csv?from=2026-01-01&to=2026-01-01", /from must be before to/],
    ["/v1/statement.csv?from=2020-01-01&to=2026-01-01", /at most 366 days/],
    ["/v1/statement.csv?from=0001-01-01&to=9999-12-31", /at most 366 days/],
  ])("statement %s is 400 parameter_invalid", async (path, message) => {
    await expectRefused(await get(path), { status: 400, code: "parameter_invalid", message });
  });

  test("a statement of a whole leap year is served", async () => {
    const answer = await get("/v1/statement.csv?from=2024-01-01&to=2025-01-01");
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("closing_balance");
  });
});

describe("sums past 2^53", () => {
  test("a stock report whose valuation passes 2^53 cents is served, not a 500", async () => {
    for (const name of ["Gold bar A", "Gold bar B"]) {
      const answer = await sendRaw(served.baseUrl, {
        method: "POST",
        path: "/v1/products",
        headers: authorized({ "Content-Type": "application/json" }),
        body: JSON.stringify({ name, price_cents: 1_000_000_000, track_stock: true, stock_qty: 1_000_000_000 }),
      });
      expect(answer.status).toBe(201);
    }
    const answer = await sendRaw(served.baseUrl, { method: "GET", path: "/v1/stock/report", headers: authorized() });
    expect(answer.status).toBe(200);
    const usd = JSON.parse(answer.text).totals.find((total: { currency: string }) => total.currency === "USD");
    expect(usd.value_cents).toBeGreaterThanOrEqual(2e18);
  });
});
