import path from "node:path";
import { fileURLToPath } from "node:url";
import { findViolations, formatViolations, readImportGraph } from "./graph.ts";

/**
 * `npm run check:imports` (part of `make test`): fails, naming every offending import, when the code
 * imports upward, when two modules import each other, when files import each other in a circle, or
 * when code outside a module reaches past its front door (`src/modules/<name>/index.ts`).
 * The rules are written in ./graph.ts and docs/architecture.md.
 */
const root = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const graph = readImportGraph(root);
const violations = findViolations(graph);
if (violations.length > 0) {
  process.stderr.write(`${formatViolations(violations)}\n`);
  process.stderr.write(`import graph: ${violations.length} rule(s) broken\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`import graph: ${graph.edges.length} imports between project files, no rule broken\n`);
}
