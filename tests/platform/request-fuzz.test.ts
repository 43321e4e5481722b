import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { type GatewaySimulator, startGatewaySimulator } from "../../src/gateway/simulator/app.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";
import { serve, TEST_ADMIN_TOKEN, testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { fundMerchant, newMerchant, type TestMerchant } from "../support/factories.ts";
import { envelopeOf, moneyTableCounts, type RawResponse, sendOverSocket, sendRaw } from "./hostile-requests.ts";

/**
 * Property: whatever arrives, the API never answers 5xx, every error is the envelope, and a 4xx writes
 * nothing (no row in a money table; the one record it may leave is a money POST's stored 4xx answer,
 * replayed for its Idempotency-Key by design). For every operation of the OpenAPI document the app serves, requests are generated from the
 * operation's own schemas, valid or with one mutation: wrong types, huge sizes, lying Content-Encoding,
 * bytes that are not UTF-8, NULs, control characters, lone surrogates, malformed percent-escapes in the
 * path and the query, repeated JSON keys, deep nesting, numbers past 2^53 or past a double's range.
 * Requests go through a real listening server, byte for byte. The seed is fixed (REQUEST_FUZZ_SEED
 * overrides it) and printed with the case count, so a failure replays exactly.
 */

const SEED = Number(process.env.REQUEST_FUZZ_SEED ?? 20_2026);
const RUNS_PER_OPERATION = 30;
const RAW_HEADER_RUNS = 150;
/** A bound for a loaded machine (several suites at once); alone the property runs in seconds. */
const FUZZ_TIMEOUT_MS = 240_000;

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  items?: JsonSchema;
};
type Parameter = { in: "path" | "query" | "header"; name: string; required?: boolean; schema: JsonSchema };
type Operation = {
  method: string;
  path: string;
  operationId: string;
  auth: "api_key" | "admin" | "none";
  idempotent: boolean;
  parameters: Parameter[];
  body: JsonSchema | undefined;
};
type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: Buffer; mutation: string };

let db: TestDatabase;
let served: Awaited<ReturnType<typeof serve>>;
let shop: TestMerchant;
let operations: Operation[];
/** Ids of real objects, so that some requests reach their object instead of a 404. */
let knownIds: string[];
let victim: TestMerchant;
let gateway: GatewaySimulator;
const errorLogLines: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // The live world talks to the gateway simulator, so live-key requests reach a gateway as in production.
  gateway = await startGatewaySimulator({
    port: 0,
    apiKey: "fuzz-gateway-key",
    logger: createLogger({ level: "silent", service: "test" }),
  });
  const config = testConfig(db.url, {
    RATE_LIMIT_REQUESTS: "10000",
    GATEWAY_URL: gateway.url,
    GATEWAY_API_KEY: "fuzz-gateway-key",
  });
  // Error logs are kept, so that a 5xx is reported with the fault the server logged for it.
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      errorLogLines.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level: "error", service: "test" }, sink);
  served = await serve(testApp({ database: db.database, config, logger }));
  shop = await newMerchant(db.database);
  // Operator routes act on another merchant, so the fuzz cannot suspend or revoke its own.
  victim = await newMerchant(db.database);
  await fundMerchant(db.database, { merchantId: shop.id, livemode: false, currency: "USD", amountCents: 500_000 });
  const create = async (path: string, body: unknown) => {
    const answer = await sendRaw(served.baseUrl, {
      method: "POST",
      path,
      headers: {
        Authorization: `Bearer ${shop.testKey}`,
        "Content-Type": "application/json",
        "Idempotency-Key": `fuzz-setup-${path}`,
      },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(201);
    return (JSON.parse(answer.text) as { id: string }).id;
  };
  knownIds = [
    await create("/v1/payments", { amount_cents: 500, currency: "USD" }),
    await create("/v1/products", { name: "Fuzzed", price_cents: 250, track_stock: true, stock_qty: 100 }),
    await create("/v1/webhook_endpoints", { url: "http://127.0.0.1:9/hook" }),
    victim.id,
  ];
  const document = JSON.parse((await sendRaw(served.baseUrl, { method: "GET", path: "/v1/openapi.json" })).text);
  operations = operationsOf(document);
});
afterAll(async () => {
  await served.close();
  await gateway.stop();
  await db.close();
});

function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const security = (operation.security ?? []) as Record<string, unknown>[];
      const parameters = (operation.parameters ?? []) as Parameter[];
      const content = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content;
      found.push({
        method: method.toUpperCase(),
        path,
        operationId: String(operation.operationId),
        auth: security.some((scheme) => "apiKey" in scheme)
          ? "api_key"
          : security.some((scheme) => "adminToken" in scheme)
            ? "admin"
            : "none",
        idempotent: parameters.some((parameter) => parameter.in === "header" && parameter.name === "idempotency-key"),
        parameters,
        body: content?.["application/json"]?.schema,
      });
    }
  }
  return found;
}

// ---- Values a schema accepts ----

function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) {
    return fc.constant(schema.const);
  }
  if (schema.enum !== undefined) {
    return fc.constantFrom(...schema.enum);
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) {
    return fc.oneof(...alternatives.map(validValue));
  }
  switch (schema.type) {
    case "string":
      return validString(schema);
    case "integer": {
      const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? -1_000_000);
      return fc.integer({ min, max: schema.maximum ?? Math.max(min, 1_000_000) });
    }
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(validValue(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3)),
      });
    case "object":
      return validObject(schema);
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, Math.max(minLength, 40));
  if (schema.format === "email") {
    return fc.emailAddress().filter((email) => email.length <= maxLength);
  }
  if (schema.format === "uri") {
    return fc.webUrl().filter((url) => url.length <= maxLength);
  }
  if (schema.pattern !== undefined) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= minLength);
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: "grapheme" }),
    ...(minLength <= 24 ? [fc.constantFrom(...knownIds)] : []),
  );
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  if (schema.properties !== undefined) {
    const fields = Object.fromEntries(
      Object.entries(schema.properties).map(([key, field]) => [key, validValue(field)]),
    );
    return fc.record(fields, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
  }
  if (typeof schema.additionalProperties === "object") {
    return fc.dictionary(
      validString(schema.propertyNames ?? { type: "string", minLength: 1, maxLength: 20 }),
      validValue(schema.additionalProperties),
      { maxKeys: 4 },
    );
  }
  return fc.constant({});
}

// ---- Mutations ----

/** Strings no field should let through to SQL, and sizes no field expects. */
const hostileString = fc.oneof(
  fc.constantFrom("\u0000", "a\u0000b", "\u0001", "\u001b[2J", "\u007f", "\u0085", "\ud800", "x\udfffy", "\ufeff", "‮"),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.integer({ min: 1_000, max: 150_000 }).map((length) => "x".repeat(length)),
  fc.constantFrom(
    "",
    " ",
    "null",
    "0",
    "-1",
    "1e400",
    "NaN",
    "' OR 1=1 --",
    "%00",
    "../../etc/passwd",
    "💳".repeat(300),
  ),
);
const wrongTypeValue = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 0.5, -0, 1e21, [], {}, [1, "a"], { nested: { deep: [null] } }),
  fc.integer(),
  fc.double(),
);
/** Number literals written into the JSON text as is: past 2^53, past a double's range, odd forms. */
const rawNumber = fc.constantFrom(
  "9007199254740993",
  "-9007199254740993",
  "1e400",
  "-1e400",
  "1e-400",
  "123456789012345678901234567890",
  "1.0",
  "1E2",
  "-0",
  "0.1e1",
);
const badPercentEscape = fc.constantFrom(
  "%",
  "%zz",
  "%ff%fe",
  "%C0%AE",
  "%ED%A0%80",
  "%E0%A4%A",
  "%00",
  "%1b",
  "%7F",
  "%u0041",
);

type Mutation =
  | { kind: "valid" }
  | { kind: "field"; value: unknown }
  | { kind: "extra_field"; value: unknown }
  | { kind: "raw_number"; literal: string }
  | { kind: "duplicate_key" }
  | { kind: "deep_nesting"; depth: number }
  | { kind: "lying_encoding"; encoding: string }
  | { kind: "truthful_gzip" }
  | { kind: "not_utf8" }
  | { kind: "content_type"; value: string }
  | { kind: "truncated_body" }
  | { kind: "path"; escape: string; replace: boolean }
  | { kind: "query"; name: string; value: string; encoded: boolean }
  | { kind: "idempotency_key"; value: string | undefined }
  | { kind: "live_key" };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: "valid" as const }) },
  { weight: 3, arbitrary: wrongTypeValue.map((value) => ({ kind: "field" as const, value })) },
  { weight: 1, arbitrary: wrongTypeValue.map((value) => ({ kind: "extra_field" as const, value })) },
  { weight: 2, arbitrary: rawNumber.map((literal) => ({ kind: "raw_number" as const, literal })) },
  { weight: 1, arbitrary: fc.constant({ kind: "duplicate_key" as const }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 30, max: 5_000 }).map((depth) => ({ kind: "deep_nesting" as const, depth })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("gzip", "deflate", "br", "zstd", "compress", "gzip, gzip", "identity, gzip")
      .map((encoding) => ({ kind: "lying_encoding" as const, encoding })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "truthful_gzip" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "not_utf8" as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        "text/plain",
        "application/json; charset=latin1",
        "application/json; charset=utf-16",
        "application/json, text/plain",
        "application/x-www-form-urlencoded",
        "application/merge-patch+json",
        "",
      )
      .map((value) => ({ kind: "content_type" as const, value })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "truncated_body" as const }) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        escape: fc.oneof(
          badPercentEscape,
          hostileString.map((text) => encodeURIComponent(safeForUri(text))),
        ),
        replace: fc.boolean(),
      })
      .map((path) => ({ kind: "path" as const, ...path })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        name: fc.constantFrom("status", "from", "to", "limit", "cursor", "q", "merchant_ref", "unknown", "limit[]"),
        value: fc.oneof(badPercentEscape, hostileString, fc.constantFrom("0000-01-01", "9999-12-31", "2024-02-30")),
        encoded: fc.boolean(),
      })
      .map((query) => ({ kind: "query" as const, ...query })),
  },
  {
    weight: 1,
    arbitrary: fc
      .option(fc.oneof(fc.constantFrom("", " ", "\t", "k".repeat(256), "ключ", "é"), fc.string({ maxLength: 20 })))
      .map((value) => ({ kind: "idempotency_key" as const, value: value ?? undefined })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "live_key" as const }) },
);

/** encodeURIComponent throws on lone surrogates; those are sent as the raw escape of their UTF-8 bytes. */
function safeForUri(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

/** Escapes only what an HTTP request line cannot carry (spaces, controls, non-ASCII); `%`, `'` or `&` stay raw. */
function looselyEncoded(text: string): string {
  return text.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(safeForUri(character)));
}

let requestSequence = 0;

function buildRequest(
  operation: Operation,
  values: { body: unknown; query: Record<string, unknown>; path: Record<string, unknown> },
  change: Mutation,
): FuzzRequest {
  requestSequence += 1;
  const headers: Record<string, string> = { "X-Request-Id": `fuzz-${requestSequence}` };
  if (operation.auth === "api_key") {
    headers.Authorization = `Bearer ${change.kind === "live_key" ? shop.liveKey : shop.testKey}`;
  } else if (operation.auth === "admin") {
    headers.Authorization = `Bearer ${TEST_ADMIN_TOKEN}`;
  }
  if (operation.idempotent) {
    headers["Idempotency-Key"] = `fuzz-${SEED}-${requestSequence}`;
  }
  if (change.kind === "idempotency_key") {
    if (change.value === undefined) {
      delete headers["Idempotency-Key"];
    } else {
      // As a client sends UTF-8 in a header: its bytes, which Node reads back as latin1. Controls other
      // than tab cannot be sent by this client; the raw-socket property below covers them.
      headers["Idempotency-Key"] = Array.from(Buffer.from(change.value).toString("latin1"))
        .filter((character) => character === "\t" || (character >= " " && character !== "\x7f"))
        .join("");
    }
  }

  let path = operation.path.replace(/\{([A-Za-z_]+)\}/g, (_match, name: string) =>
    encodeURIComponent(safeForUri(String(values.path[name]))),
  );
  if (change.kind === "path") {
    const segments = path.split("/");
    const last = segments.length - 1;
    segments[last] = change.replace ? change.escape : `${segments[last]}${change.escape}`;
    path = segments.join("/");
  }
  const query = Object.entries(values.query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(safeForUri(String(value)))}`);
  if (change.kind === "query") {
    query.push(
      `${change.name}=${change.encoded ? encodeURIComponent(safeForUri(change.value)) : looselyEncoded(change.value)}`,
    );
  }
  if (query.length > 0) {
    path = `${path}?${query.join("&")}`;
  }

  if (operation.body === undefined && !["lying_encoding", "not_utf8", "deep_nesting"].includes(change.kind)) {
    return { method: operation.method, path, headers, mutation: change.kind };
  }
  let body = values.body as Record<string, unknown>;
  const fields = Object.keys(operation.body?.properties ?? {});
  if (change.kind === "field" && fields.length > 0) {
    body = { ...body, [fields[requestSequence % fields.length] as string]: change.value };
  } else if (change.kind === "extra_field") {
    body = { ...body, [`extra_${requestSequence % 3}`]: change.value };
  }
  let text = JSON.stringify(body ?? {});
  const firstField = fields[requestSequence % Math.max(fields.length, 1)] ?? "amount_cents";
  if (change.kind === "raw_number") {
    text = `{"${firstField}":${change.literal}${text.length > 2 ? `,${text.slice(1)}` : "}"}`;
  } else if (change.kind === "duplicate_key") {
    text = `{"${firstField}":null,${text.length > 2 ? text.slice(1) : `"${firstField}":1}`}`;
  } else if (change.kind === "deep_nesting") {
    text = `{"${firstField}":${"[".repeat(change.depth)}${"]".repeat(change.depth)}}`;
  } else if (change.kind === "truncated_body") {
    text = text.slice(0, Math.max(1, text.length - 2));
  }
  let bytes = Buffer.from(text);
  headers["Content-Type"] = "application/json";
  if (change.kind === "lying_encoding") {
    headers["Content-Encoding"] = change.encoding;
  } else if (change.kind === "truthful_gzip") {
    headers["Content-Encoding"] = "gzip";
    bytes = gzipSync(bytes);
  } else if (change.kind === "not_utf8") {
    bytes = Buffer.concat([bytes.subarray(0, 1), Buffer.from('"\xff\xfe":1,', "latin1"), bytes.subarray(1)]);
    if (bytes.at(-2) === 0x2c) {
      bytes = Buffer.concat([bytes.subarray(0, -2), Buffer.from("}")]);
    }
  } else if (change.kind === "content_type") {
    headers["Content-Type"] = change.value;
  }
  return { method: operation.method, path, headers, body: bytes, mutation: change.kind };
}

function requestArbitrary(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const pathValues: Record<string, fc.Arbitrary<unknown>> = {};
  const queryValues: Record<string, fc.Arbitrary<unknown>> = {};
  const optionalQuery: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === "path") {
      pathValues[parameter.name] =
        parameter.schema.enum !== undefined
          ? validValue(parameter.schema)
          : fc.oneof(fc.constantFrom(...knownIds), fc.string({ minLength: 1, maxLength: 30 }));
    } else if (parameter.in === "query") {
      queryValues[parameter.name] = validValue(parameter.schema);
      if (parameter.required !== true) {
        optionalQuery.push(parameter.name);
      }
    }
  }
  return fc
    .record({
      body: operation.body === undefined ? fc.constant(undefined) : validValue(operation.body),
      path: fc.record(pathValues),
      query: fc.record(queryValues, {
        requiredKeys: Object.keys(queryValues).filter((name) => !optionalQuery.includes(name)),
      }),
      change: mutation,
    })
    .map(({ change, ...values }) => buildRequest(operation, values, change));
}

// ---- What must hold ----

const describeRequest = (request: FuzzRequest) =>
  `${request.method} ${request.path.slice(0, 300)} [${request.mutation}] headers=${JSON.stringify(request.headers).slice(0, 300)} body=${request.body?.toString("latin1").slice(0, 300) ?? "-"}`;

function assertAnswer(request: FuzzRequest, answer: RawResponse): void {
  const context = `${describeRequest(request)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status >= 500) {
    const logged = errorLogLines.filter((line) => line.includes(`"${request.headers["X-Request-Id"]}"`));
    throw new Error(`5xx: ${context}\nserver log: ${logged.join("\n").slice(0, 3000)}`);
  }
  // The pages people open (the payer's checkout page, a customer's receipt) are HTML, their 404 too (an
  // unknown payment or receipt): the documented exceptions. A mutated path can land on one from
  // another operation, so it is recognised by its answer.
  const htmlPage =
    (request.path.startsWith("/checkout/") || request.path.startsWith("/receipts/")) &&
    answer.status === 404 &&
    String(answer.headers["content-type"]).startsWith("text/html");
  if (answer.status >= 400 && !htmlPage && envelopeOf(answer.text) === undefined) {
    throw new Error(`not the error envelope: ${context}`);
  }
}

let caseCount = 0;

test(
  "no request, valid or mutated, is answered 5xx; errors are the envelope; a 4xx writes nothing",
  async () => {
    const started = performance.now();
    expect(operations.length).toBeGreaterThanOrEqual(50);
    let countsBefore = await moneyTableCounts(db.database);
    for (const [index, operation] of operations.entries()) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(operation), async (request) => {
          caseCount += 1;
          const answer = await sendRaw(served.baseUrl, request);
          assertAnswer(request, answer);
          const countsAfter = await moneyTableCounts(db.database);
          if (answer.status >= 400 && answer.status < 500) {
            expect({ request: describeRequest(request), counts: countsAfter }).toEqual({
              request: describeRequest(request),
              counts: countsBefore,
            });
          }
          countsBefore = countsAfter;
        }),
        { seed: SEED + index, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }
    console.log(
      `request fuzz: seed ${SEED}, ${operations.length} operations, ${caseCount} requests, ${Math.round(performance.now() - started)} ms`,
    );
  },
  FUZZ_TIMEOUT_MS,
);

test("raw header lines Node's parser or the app must refuse never get a 5xx or a bare answer", async () => {
  const port = Number(new URL(served.baseUrl).port);
  const headerLine = fc.oneof(
    fc.string({ unit: "binary", maxLength: 60 }).map((text) => `X-Fuzz: ${text}`),
    fc.uint8Array({ maxLength: 40 }).map((bytes) => `Idempotency-Key: ${Buffer.from(bytes).toString("latin1")}`),
    fc.constantFrom(
      "Content-Length: 5\r\nContent-Length: 6",
      "Content-Length: -1",
      "Content-Length: 1e3",
      "Transfer-Encoding: chunked\r\nContent-Length: 3",
      "Transfer-Encoding: gzip",
      "Content-Type: application/json\r\nContent-Type: text/plain",
      "Content-Encoding: gzip\r\nContent-Encoding: br",
      `X-Big: ${"b".repeat(17_000)}`,
      "Bad Header: x",
      ": empty-name",
    ),
  );
  let rawCases = 0;
  await fc.assert(
    fc.asyncProperty(
      headerLine,
      fc.constantFrom("GET /v1/me", "POST /v1/payments", "PATCH /v1/products/x"),
      async (line, target) => {
        rawCases += 1;
        const body = '{"amount_cents":100}';
        const answer = await sendOverSocket(
          port,
          `${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.testKey}\r\nIdempotency-Key: raw-${rawCases}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${line}\r\nConnection: close\r\n\r\n${body}`,
        );
        const context = `${JSON.stringify(line).slice(0, 200)} → ${answer.status} ${answer.body.slice(0, 200)}`;
        if (answer.status === 0 || answer.status >= 500) {
          throw new Error(`no answer or 5xx: ${context}`);
        }
        if (answer.status >= 400 && envelopeOf(answer.body) === undefined) {
          throw new Error(`not the error envelope: ${context}`);
        }
      },
    ),
    { seed: SEED, numRuns: RAW_HEADER_RUNS, endOnFailure: true },
  );
  console.log(`request fuzz (raw header lines): seed ${SEED}, ${rawCases} connections`);
});
