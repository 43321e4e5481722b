import { readFile } from "node:fs/promises";
import path from "node:path";
import { WEB_API_TYPES_FILE, webApiTypesText } from "../../scripts/openapi-types/index.ts";

/**
 * The web apps' API types are what openapi-typescript makes of the committed docs/openapi.json: a change
 * to the API cannot land while the apps (and the SDK and examples) are typed against the old one.
 */
test(`${WEB_API_TYPES_FILE} is generated from docs/openapi.json`, async () => {
  const root = path.join(import.meta.dirname, "..", "..");
  const committed = await readFile(path.join(root, WEB_API_TYPES_FILE), "utf8");
  if (committed !== (await webApiTypesText(root))) {
    throw new Error(`${WEB_API_TYPES_FILE} is stale: run \`npm run openapi:write\` and commit the file`);
  }
});
