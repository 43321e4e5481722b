import { writeFile } from "node:fs/promises";
import path from "node:path";
import { WEB_API_TYPES_FILE, webApiTypesText } from "./index.ts";

/** `npm run openapi:types`: regenerates the web apps' API types from docs/openapi.json (see ./index.ts). */
const root = path.join(import.meta.dirname, "..", "..");
const file = path.join(root, WEB_API_TYPES_FILE);
await writeFile(file, await webApiTypesText(root));
process.stdout.write(`wrote ${file}\n`);
