import { readFile } from "node:fs/promises";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";

/**
 * The browser apps' API types, generated from the committed OpenAPI document by openapi-typescript, so
 * the apps, the SDK and the examples cannot drift from the API. `npm run openapi:write` (or
 * `npm run openapi:types` alone) rewrites `WEB_API_TYPES_FILE`; tests/platform/web-api-types.test.ts
 * fails while it differs from what this generates. This folder is a package of its own because
 * openapi-typescript needs TypeScript 5's compiler API, which the project's TypeScript 7 does not have.
 */
export const WEB_API_TYPES_FILE = "web/lib/api/generated.ts";

const OPENAPI_FILE = "docs/openapi.json";

const HEADER = `/**
 * Generated from ${OPENAPI_FILE} by openapi-typescript (scripts/openapi-types): do not edit. Run
 * \`npm run openapi:write\` after a change to the API and commit the result; the suite fails while stale.
 */
`;

/** The text `WEB_API_TYPES_FILE` must hold for the OpenAPI document in the repository at `root`. */
export async function webApiTypesText(root: string): Promise<string> {
  const document = JSON.parse(await readFile(path.join(root, OPENAPI_FILE), "utf8"));
  const ast = await openapiTS(document, { alphabetize: false });
  return HEADER + astToString(ast);
}
