import { readFile } from "node:fs/promises";
import path from "node:path";
import request from "supertest";
import { OPENAPI_FILE, OPENAPI_FILE_SERVER_URL, openApiFileText } from "../../src/wiring/openapi-file.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

/**
 * The committed OpenAPI document is what the API serves, byte for byte: a change to the API's
 * documentation cannot land without the file's diff showing it.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

const STALE = `${OPENAPI_FILE} is not the document GET /v1/openapi.json serves: run \`npm run openapi:write\` and commit the file`;

/** Where two texts first differ, with a few lines of each from there, for the failure message. */
function firstDifference(expected: string, actual: string): string {
  const expectedLines = expected.split("\n");
  const actualLines = actual.split("\n");
  const line = expectedLines.findIndex((text, index) => text !== actualLines[index]);
  const at = line === -1 ? expectedLines.length : line;
  const excerpt = (lines: string[]) => lines.slice(at, at + 5).join("\n");
  return `first difference at line ${at + 1}:\n--- served\n${excerpt(actualLines)}\n--- ${OPENAPI_FILE}\n${excerpt(expectedLines)}`;
}

test(`GET /v1/openapi.json is ${OPENAPI_FILE}, byte for byte`, async () => {
  const app = testApp({
    database: db.database,
    config: testConfig(db.url, { PUBLIC_BASE_URL: OPENAPI_FILE_SERVER_URL }),
  });
  const response = await request(app).get("/v1/openapi.json");
  expect(response.status).toBe(200);
  const served: string = response.text;
  const committed = await readFile(path.join(import.meta.dirname, "..", "..", OPENAPI_FILE), "utf8");
  // The file is the served document indented; the served bytes are the file's compact form.
  const fileOfServed = openApiFileText(served);
  if (committed !== fileOfServed) {
    throw new Error(`${STALE}.\n${firstDifference(committed, fileOfServed)}`);
  }
  if (JSON.stringify(JSON.parse(committed)) !== served) {
    throw new Error(`${STALE} (its compact form differs from the served bytes).`);
  }
});
