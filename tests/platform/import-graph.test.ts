import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  FRONT_DOOR_RULE,
  findViolations,
  formatViolations,
  readImportGraph,
} from "../../scripts/import-graph/graph.ts";

/** The import-graph check of `make test`, on small trees written for each case. */

const checkCommand = fileURLToPath(new URL("../../scripts/import-graph/check.ts", import.meta.url));
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "import-graph-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>) {
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
}

const violationsOf = () => findViolations(readImportGraph(root));

test("a clean tree breaks no rule", () => {
  tree({
    "src/kernel/money.ts": `import { z } from "zod";\nexport const currencies = ["USD"] as const;\n`,
    "src/platform/errors.ts": `import { currencies } from "../kernel/money.ts";\nexport const a = currencies;\n`,
    "src/modules/a/service.ts": `import { a } from "../../platform/errors.ts";\nexport const b = a;\n`,
    "src/modules/a/index.ts": `export * as a from "./service.ts";\n`,
    "src/modules/b/service.ts": `import { a } from "../a/index.ts";\nexport const c = a.b;\n`,
    "src/wiring/modules.ts": `import { a } from "../modules/a/index.ts";\nexport const f = a;\n`,
    "src/modules/b/b.test.ts": `import { c } from "./service.ts";\nimport "../../../tests/support/x.ts";\n`,
    "tests/support/x.ts": `import { c } from "../../src/modules/b/service.ts";\nexport const d = c;\n`,
    "web/app.tsx": `import { currencies } from "../src/kernel/money.ts";\nimport "./app.css";\nexport const e = <p>{currencies}</p>;\n`,
  });
  expect(violationsOf()).toEqual([]);
});

test("a file cycle is found, with its edges", () => {
  tree({
    "src/platform/a.ts": `import { b } from "./b.ts";\nexport const a = () => b;\n`,
    "src/platform/b.ts": `import type { a } from "./a.ts";\nexport const b = 1 as unknown as typeof a;\n`,
  });
  const violations = violationsOf();
  expect(violations).toHaveLength(1);
  expect(formatViolations(violations)).toBe(
    [
      "✗ files import each other (a file cycle): src/platform/a.ts ↔ src/platform/b.ts",
      "    src/platform/a.ts → src/platform/b.ts",
      "    src/platform/b.ts → src/platform/a.ts",
    ].join("\n"),
  );
});

test("two modules importing each other, even without a file cycle, are a folder cycle", () => {
  tree({
    "src/modules/catalog/index.ts": `export * from "./service.ts";\n`,
    "src/modules/catalog/service.ts": `import { move } from "../stock/index.ts";\nexport const product = move;\n`,
    "src/modules/stock/index.ts": `export const move = 1;\n`,
    "src/modules/stock/routes.ts": `import { product } from "../catalog/index.ts";\nexport const routes = product;\n`,
  });
  expect(violationsOf()).toEqual([
    {
      rule: "modules import each other (a folder cycle)",
      detail: "src/modules/catalog ↔ src/modules/stock",
      edges: [
        {
          from: "src/modules/catalog/service.ts",
          to: "src/modules/stock/index.ts",
          specifier: "../stock/index.ts",
        },
        {
          from: "src/modules/stock/routes.ts",
          to: "src/modules/catalog/index.ts",
          specifier: "../catalog/index.ts",
        },
      ],
    },
  ]);
});

test("reaching past another module's front door is named, from a module, the wiring or a service; tests may", () => {
  tree({
    "src/modules/catalog/index.ts": `export * as catalog from "./service.ts";\n`,
    "src/modules/catalog/service.ts": `import { rows } from "./queries.ts";\nexport const product = rows;\n`,
    "src/modules/catalog/queries.ts": `export const rows = 1;\n`,
    "src/modules/catalog/catalog.test.ts": `import { rows } from "./queries.ts";\nexport const t = rows;\n`,
    "src/modules/stock/service.ts": `import { catalog } from "../catalog/index.ts";\nexport const move = catalog;\n`,
    "src/modules/stock/queries.ts": `import { rows } from "../catalog/queries.ts";\nexport const moves = rows;\n`,
    "src/modules/stock/pumps/due.ts": `import type { product } from "../../catalog/service.ts";\nexport type P = typeof product;\n`,
    "src/modules/stock/stock.test.ts": `import { rows } from "../catalog/queries.ts";\nexport const t = rows;\n`,
    "src/wiring/modules.ts": `import { product } from "../modules/catalog/service.ts";\nexport const w = product;\n`,
    "services/admin/main.ts": `import { catalog } from "../../src/modules/catalog/index.ts";\nexport const s = catalog;\n`,
    "tests/support/catalog.ts": `import { rows } from "../../src/modules/catalog/queries.ts";\nexport const t = rows;\n`,
    "bench/catalog.ts": `import { product } from "../src/modules/catalog/service.ts";\nexport const b = product;\n`,
  });
  const violations = violationsOf();
  expect(violations.map((violation) => violation.rule)).toEqual([FRONT_DOOR_RULE]);
  expect(formatViolations(violations)).toBe(
    [
      `✗ ${FRONT_DOOR_RULE}`,
      "    src/modules/stock/pumps/due.ts → src/modules/catalog/service.ts",
      "    src/modules/stock/queries.ts → src/modules/catalog/queries.ts",
      "    src/wiring/modules.ts → src/modules/catalog/service.ts",
    ].join("\n"),
  );
});

test("upward imports, the kernel's and the browser's outside imports are each named", () => {
  tree({
    "src/kernel/world.ts": `import type { x } from "../platform/x.ts";\nexport type World = typeof x;\n`,
    "src/platform/x.ts": `export const x = await import("../modules/m/service.ts");\n`,
    "src/modules/m/service.ts": `export * from "../../wiring/api.ts";\n`,
    "src/wiring/api.ts": `export const api = 1;\n`,
    "web/lib/api.ts": `import { x } from "../../src/platform/x.ts";\nexport const y = x;\n`,
  });
  const rules = violationsOf().map((violation) => [violation.rule, violation.edges.map((edge) => edge.from)]);
  expect(rules).toEqual([
    ["the kernel imports a project file outside src/kernel", ["src/kernel/world.ts"]],
    ["upward import: modules imports wiring", ["src/modules/m/service.ts"]],
    ["upward import: platform imports modules", ["src/platform/x.ts"]],
    ["web/ imports src/ outside src/kernel", ["web/lib/api.ts"]],
  ]);
});

test("an import in a comment or a string is not an import; one naming no file is reported", () => {
  tree({
    "src/platform/a.ts": [
      `// import { b } from "./b.ts";`,
      "export const text = `import { b } from './b.ts'`;",
      `import { gone } from "./gone.ts";`,
      "",
    ].join("\n"),
    "src/platform/b.ts": `import { text } from "./a.ts";\nexport const b = text;\n`,
  });
  expect(violationsOf()).toEqual([
    {
      rule: "a relative import names no file",
      edges: [{ from: "src/platform/a.ts", to: "./gone.ts", specifier: "./gone.ts" }],
    },
  ]);
});

test("the command exits 1 and prints the offending edges", () => {
  tree({
    "src/platform/a.ts": `import "./b.ts";\n`,
    "src/platform/b.ts": `import "./a.ts";\n`,
  });
  const run = spawnSync(process.execPath, [checkCommand, root], { encoding: "utf8" });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("src/platform/a.ts → src/platform/b.ts");
  expect(run.stderr).toContain("src/platform/b.ts → src/platform/a.ts");
});
