import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseSync } from "@swc/core";

/**
 * The project's import graph and its rules, read from the source with SWC's parser (already installed
 * for Jest), so that a string or a comment that looks like an import is never mistaken for one.
 *
 * Every import counts, type-only ones too: a type import is still a dependency a reader must follow.
 * Rules (see docs/architecture.md, "Layers"):
 * - layers: kernel → platform → gateway → modules → wiring → services; a file imports only its own
 *   layer and those below it. The kernel imports no project file outside itself (packages such as zod
 *   are allowed); src/sdk imports nothing of the project (merchants copy it as it is);
 * - the browser code (web/) imports no file of src/ except src/kernel;
 * - production code (src/, services/, web/) imports nothing from tests/, bench/, scripts/ or load-tests/;
 * - test files (`*.test.ts` and everything under tests/) may import any layer, because they drive the
 *   whole;
 * - no two modules (src/modules/<a>, src/modules/<b>) import each other, directly or round a circle
 *   (test files apart);
 * - front doors: production code outside a module (another module, src/wiring, services/) imports
 *   that module only through its `index.ts`, never its service.ts, queries.ts, routes.ts, schemas.ts
 *   or any other file. Test files and tooling (tests/, bench/, scripts/, load-tests/) may reach in;
 * - no import cycle between files.
 */

/** Folders read, relative to the repository's root. */
export const SOURCE_ROOTS = ["src", "services", "web", "tests", "bench", "scripts", "load-tests"] as const;
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", ".data", "coverage"]);
const SOURCE_EXTENSION = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;

export type ImportEdge = { from: string; to: string; specifier: string };
export type Violation = { rule: string; edges: ImportEdge[]; detail?: string };

/** Every source file below the roots, as paths relative to `root` with forward slashes. */
export function listSourceFiles(root: string, roots: readonly string[] = SOURCE_ROOTS): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && child !== "web/dist") {
          walk(child);
        }
      } else if (entry.isFile() && SOURCE_EXTENSION.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        files.push(child);
      }
    }
  };
  for (const top of roots) {
    if (existsSync(path.join(root, top))) {
      walk(top);
    }
  }
  return files.sort();
}

/** The module specifiers a file names: static imports, re-exports, `import()` and `import("…")` types. */
export function specifiersOf(source: string, file: string): string[] {
  const module = parseSync(source, {
    syntax: "typescript",
    tsx: file.endsWith(".tsx") || file.endsWith(".jsx"),
    target: "es2024",
  });
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) {
        visit(item);
      }
      return;
    }
    if (node === null || typeof node !== "object") {
      return;
    }
    const record = node as Record<string, unknown> & { type?: string };
    const literal = (value: unknown) =>
      value !== null && typeof value === "object" && (value as { type?: string }).type === "StringLiteral"
        ? (value as { value: string }).value
        : undefined;
    switch (record.type) {
      case "ImportDeclaration":
      case "ExportAllDeclaration":
      case "ExportNamedDeclaration": {
        const specifier = literal(record.source);
        if (specifier !== undefined) {
          found.push(specifier);
        }
        break;
      }
      case "CallExpression": {
        const callee = record.callee as { type?: string } | undefined;
        const first = (record.arguments as { expression?: unknown }[] | undefined)?.[0]?.expression;
        const specifier = callee?.type === "Import" ? literal(first) : undefined;
        if (specifier !== undefined) {
          found.push(specifier);
        }
        break;
      }
      case "TsImportType": {
        const specifier = literal(record.argument);
        if (specifier !== undefined) {
          found.push(specifier);
        }
        break;
      }
    }
    for (const [key, value] of Object.entries(record)) {
      if (key !== "span" && typeof value === "object") {
        visit(value);
      }
    }
  };
  visit(module.body);
  return found;
}

/** The project file a relative specifier names, or null (a package, a node: builtin, an asset). */
export function resolveSpecifier(root: string, from: string, specifier: string): string | null | "missing" {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
    return null;
  }
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (!SOURCE_EXTENSION.test(target) && /\.[a-z]+$/i.test(target)) {
    // CSS, JSON and other assets are not part of the code's graph.
    return null;
  }
  const stem = target.replace(/\.(js|mjs|cjs|jsx)$/, "");
  const candidates = [
    target,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${target}.ts`,
    `${target}.tsx`,
    `${target}/index.ts`,
    `${target}/index.tsx`,
  ];
  for (const candidate of candidates) {
    const absolute = path.join(root, candidate);
    if (existsSync(absolute) && statSync(absolute).isFile()) {
      return candidate;
    }
  }
  return "missing";
}

/** Every import edge between project files below `root`, and the relative imports that name no file. */
export function readImportGraph(root: string, roots: readonly string[] = SOURCE_ROOTS) {
  const edges: ImportEdge[] = [];
  const unresolved: ImportEdge[] = [];
  for (const file of listSourceFiles(root, roots)) {
    for (const specifier of specifiersOf(readFileSync(path.join(root, file), "utf8"), file)) {
      const to = resolveSpecifier(root, file, specifier);
      if (to === "missing") {
        unresolved.push({ from: file, to: specifier, specifier });
      } else if (to !== null) {
        edges.push({ from: file, to, specifier });
      }
    }
  }
  return { edges, unresolved };
}

export function isTestFile(file: string): boolean {
  return file.startsWith("tests/") || /\.test\.tsx?$/.test(file);
}

/** The layer a file belongs to, lowest first; null for the folders no rule restricts. */
const LAYERS = [
  { name: "kernel", prefix: "src/kernel/" },
  { name: "platform", prefix: "src/platform/" },
  { name: "gateway", prefix: "src/gateway/" },
  { name: "modules", prefix: "src/modules/" },
  { name: "wiring", prefix: "src/wiring/" },
  { name: "services", prefix: "services/" },
] as const;

function layerOf(file: string): number | null {
  const index = LAYERS.findIndex((layer) => file.startsWith(layer.prefix));
  return index === -1 ? null : index;
}

const TOOLING = ["tests/", "bench/", "scripts/", "load-tests/"];

/** The rule an edge breaks, or null. */
export function layerRuleBroken(edge: ImportEdge): string | null {
  const { from, to } = edge;
  if (isTestFile(from)) {
    return null;
  }
  const production = from.startsWith("src/") || from.startsWith("services/") || from.startsWith("web/");
  if (production && TOOLING.some((prefix) => to.startsWith(prefix))) {
    return "production code imports tooling (tests/, bench/, scripts/, load-tests/)";
  }
  if (from.startsWith("src/kernel/") && !to.startsWith("src/kernel/")) {
    return "the kernel imports a project file outside src/kernel";
  }
  if (from.startsWith("src/sdk/") && !to.startsWith("src/sdk/")) {
    return "the sdk imports a project file outside src/sdk";
  }
  if (from.startsWith("web/") && to.startsWith("src/") && !to.startsWith("src/kernel/")) {
    return "web/ imports src/ outside src/kernel";
  }
  if (to.startsWith("web/") && from.startsWith("src/")) {
    return "src/ imports web/";
  }
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (fromLayer !== null && toLayer !== null && toLayer > fromLayer) {
    return `upward import: ${LAYERS[fromLayer]?.name} imports ${LAYERS[toLayer]?.name}`;
  }
  return null;
}

/** The rule of module front doors, as its violations are headed. */
export const FRONT_DOOR_RULE = "reaches into another module: import its front door, src/modules/<name>/index.ts";

/**
 * The front-door rule an edge breaks, or null: a production file (src/, services/) outside module
 * <b> imports a file of src/modules/<b>/ other than its index.ts. Tests and tooling are exempt.
 */
export function frontDoorRuleBroken(edge: ImportEdge): string | null {
  const { from, to } = edge;
  if (isTestFile(from) || !(from.startsWith("src/") || from.startsWith("services/"))) {
    return null;
  }
  const target = moduleOf(to);
  if (target === null || moduleOf(from) === target || to === `src/modules/${target}/index.ts`) {
    return null;
  }
  return FRONT_DOOR_RULE;
}

/** Strongly connected components of more than one node (or a node importing itself), by Tarjan. */
export function cyclesOf(nodes: Iterable<string>, edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const node of nodes) {
    next.set(node, []);
  }
  for (const edge of edges) {
    const targets = next.get(edge.from) ?? [];
    targets.push(edge.to);
    next.set(edge.from, targets);
    if (!next.has(edge.to)) {
      next.set(edge.to, []);
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  // Iterative, so that a long chain of imports cannot overflow the call stack.
  for (const start of next.keys()) {
    if (index.has(start)) {
      continue;
    }
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; child: number };
      const children = next.get(frame.node) ?? [];
      if (frame.child < children.length) {
        const child = children[frame.child] as string;
        frame.child += 1;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter);
          counter += 1;
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(child) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && children.includes(frame.node);
        if (component.length > 1 || selfLoop) {
          components.push(component.sort());
        }
      }
    }
  }
  return components;
}

function moduleOf(file: string): string | null {
  const match = /^src\/modules\/([^/]+)\//.exec(file);
  return match === null ? null : (match[1] as string);
}

/** Every rule the graph breaks, each with the edges that break it. */
export function findViolations(graph: { edges: ImportEdge[]; unresolved: ImportEdge[] }): Violation[] {
  const violations: Violation[] = [];
  for (const edge of graph.unresolved) {
    violations.push({ rule: "a relative import names no file", edges: [edge] });
  }
  const byRule = new Map<string, ImportEdge[]>();
  for (const edge of graph.edges) {
    const rule = layerRuleBroken(edge) ?? frontDoorRuleBroken(edge);
    if (rule !== null) {
      byRule.set(rule, [...(byRule.get(rule) ?? []), edge]);
    }
  }
  for (const [rule, edges] of byRule) {
    violations.push({ rule, edges });
  }

  const moduleEdges = graph.edges
    .filter((edge) => !isTestFile(edge.from))
    .map((edge) => ({ edge, from: moduleOf(edge.from), to: moduleOf(edge.to) }))
    .filter((link) => link.from !== null && link.to !== null && link.from !== link.to);
  for (const component of cyclesOf(
    [],
    moduleEdges.map((link) => ({ from: link.from as string, to: link.to as string })),
  )) {
    const members = new Set(component);
    violations.push({
      rule: "modules import each other (a folder cycle)",
      detail: component.map((name) => `src/modules/${name}`).join(" ↔ "),
      edges: moduleEdges
        .filter((link) => members.has(link.from as string) && members.has(link.to as string))
        .map((link) => link.edge),
    });
  }

  for (const component of cyclesOf([], graph.edges)) {
    const members = new Set(component);
    violations.push({
      rule: "files import each other (a file cycle)",
      detail: component.join(" ↔ "),
      edges: graph.edges.filter((edge) => members.has(edge.from) && members.has(edge.to)),
    });
  }
  return violations;
}

/** The violations as lines a person can act on: one rule, then each offending edge. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations
    .map((violation) =>
      [
        `✗ ${violation.rule}${violation.detail === undefined ? "" : `: ${violation.detail}`}`,
        ...violation.edges.map((edge) => `    ${edge.from} → ${edge.to}`),
      ].join("\n"),
    )
    .join("\n");
}
