import { writeFile } from "node:fs/promises";
import path from "node:path";
import { OPENAPI_FILE, openApiFileOfRoutes } from "../src/wiring/openapi-file.ts";

/**
 * Regenerates docs/openapi.json from the API's routes (`npm run openapi:write`) after a change to a
 * route, a schema or its documentation; commit the result with the change. The suite fails while the
 * file differs from what the API serves (tests/platform/openapi-file.test.ts).
 */
const file = path.join(import.meta.dirname, "..", OPENAPI_FILE);
await writeFile(file, openApiFileOfRoutes());
process.stdout.write(`wrote ${file}\n`);
