import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { SECURITY_DOC, securityDocWithTable } from "../src/wiring/access-table.ts";

/**
 * Rewrites the route table of docs/security.md from the routes' declared access (`npm run
 * security:write`) after adding a route or changing who may call one; commit the result with the change.
 */
const file = path.join(import.meta.dirname, "..", SECURITY_DOC);
await writeFile(file, securityDocWithTable(await readFile(file, "utf8")));
process.stdout.write(`wrote ${file}\n`);
