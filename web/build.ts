import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

/**
 * Builds the browser apps: each app's entry bundled (TSX through Preact) into content-hashed files,
 * an `index.html` shell per app that loads them by URL (no inline script, so the CSP can forbid it),
 * the till's service worker (which caches the till's shell and files for opening offline), and
 * `manifest.json`, which the API's web-apps module serves from. Prints each file's gzipped size
 * and fails when an app's script exceeds its budget. Run by `make run`, `make build` and the tests'
 * global setup; the output directory is git-ignored.
 */

const webDirectory = path.dirname(fileURLToPath(import.meta.url));
export const WEB_BUILD_DIRECTORY = path.join(webDirectory, "dist");

/**
 * The apps and their budgets: gzipped bytes of what the app loads first (its script and the chunks it
 * imports statically, Preact included); a page loaded on demand is its own chunk, outside the budget.
 */
const APPS = {
  // The dashboard grew by two-factor setup, cashier roles and the webhook event picker (~0.6 kB each),
  // then both worlds' keys, the balance card, payouts that refresh, filters in the URL, the late
  // payment card and sign-out-everywhere: 27.5 kB on 2026-11-28. It is the owner's desk tool, not the
  // counter's. Then the Products page (~3 kB) came as its own chunk with the Developers pages: a first
  // load of 26.5 kB the same day. The typed client and the shop's settings pages took it to 28.4 kB;
  // Home's net sales today and the Reports page's entry (~0.4 kB, the page itself its own chunk) would
  // have passed the budget, so Settings now loads on demand too: 27.7 kB the same day. Back at 28,500 B
  // later that day, it made room with Balance, Payouts, Cashiers and Till devices loaded on demand too
  // (and the API's front door, web/lib/api.ts, shared by those pages): 23,603 B, the budget kept.
  dashboard: { entry: "dashboard/main.tsx", title: "Dashboard", scriptBudgetBytes: 28_500 },
  // The till grew by its counter screens (PIN, drawer and Z report, returns, receipts, pairing: ~5.7 kB)
  // and its offline outbox (~2.7 kB): 30.1 kB together. Loading the screens a cashier opens rarely (the
  // drawer, the Z report, returns, pairing) as their own chunks would take ~8 kB off the first load.
  // Then the manager's approval and PIN change (~1.2 kB) and the held wallet payment with its cancel
  // (~0.6 kB): 32.5 kB on 2026-11-28. Then the rate of the day on Today with its Set rate dialog and
  // stock on the tiles (~0.6 kB): 33.8 kB the same day. The typed client's merge took it to 34.1 kB.
  // Then the screens opened now and then (drawer and Z report, Today with returns, stock, This till)
  // became one chunk loaded on demand (web/till/occasional-screens.ts, 7.9 kB gzipped; its service
  // worker caches it): a first load of 29.7 kB (script 8.4 kB + shared chunk 21.3 kB) on 2026-11-28.
  // Discounts and tax in the cart (the kernel's priceBasket, the discount dialog, the tax lines) and a
  // return's refund (the kernel's refunds.ts; issue 47) took the first load from 30,493 B to 32,197 B
  // at their merge (+1,704 B measured): the budget rose by exactly that.
  // The budget keeps ~300 B of room over the 32.2 kB measured.
  till: { entry: "till/main.tsx", title: "Till", scriptBudgetBytes: 32_500 },
} as const;
export type AppName = keyof typeof APPS;

export type WebManifest = {
  /** Hashed file name → its content type and size; served as immutable under /assets/. */
  files: Record<string, { contentType: string; bytes: number; gzipBytes: number }>;
  /** Each app's shell (an HTML file in the build directory) and its script and style. */
  apps: Record<string, { html: string; script: string; style: string | undefined }>;
  /** An app's service worker (a file in the build directory, not under /assets: its URL never changes). */
  serviceWorkers: Record<string, string>;
};

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

function shell(title: string, script: string, style: string | undefined): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${title}</title>`,
    // No icon yet: an empty one keeps the browser from asking for /favicon.ico.
    '<link rel="icon" href="data:,">',
    style === undefined ? "" : `<link rel="stylesheet" href="/assets/${style}">`,
    `<script type="module" src="/assets/${script}"></script>`,
    "</head>",
    "<body>",
    '<div id="app"></div>',
    "<noscript>This page needs JavaScript.</noscript>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

export async function buildWeb(
  options: {
    outDirectory?: string;
    quiet?: boolean;
    /**
     * A comment at the top of every script: a build label (two builds of the same sources then differ).
     * A labelled build is a test's second release, not one we ship: its budgets are not checked (the
     * release build of the same sources checks them), so the label's bytes never fail a test.
     */
    label?: string;
  } = {},
): Promise<WebManifest> {
  const outDirectory = options.outDirectory ?? WEB_BUILD_DIRECTORY;
  await rm(outDirectory, { recursive: true, force: true });
  await mkdir(outDirectory, { recursive: true });
  // One build per app: each splits its lazily loaded pages into chunks (esbuild's splitting), and
  // neither shares a chunk with the other. The till's service worker caches all of the till's files.
  const names = Object.keys(APPS) as AppName[];
  const results = await Promise.all(names.map((name) => buildApp(name, outDirectory, options.label)));
  const metafile: Metafile = {
    inputs: Object.assign({}, ...results.map((result) => result.inputs)),
    outputs: Object.assign({}, ...results.map((result) => result.outputs)),
  };
  const manifest = await writeManifest(outDirectory, metafile);
  const tillFiles = Object.keys(results[names.indexOf("till")]?.outputs ?? {}).map((output) => path.basename(output));
  manifest.serviceWorkers.till = await buildServiceWorker(outDirectory, manifest, tillFiles);
  await writeFile(path.join(outDirectory, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const problems = options.label === undefined ? overBudget(manifest, metafile) : [];
  if (!options.quiet) {
    process.stdout.write(report(manifest));
    for (const [appName, app] of Object.entries(manifest.apps)) {
      process.stdout.write(`  ${appName}: first load ${firstLoadBytes(app.script, manifest, metafile)} B gzipped\n`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`web build over budget:\n  ${problems.join("\n  ")}`);
  }
  return manifest;
}

async function buildApp(name: AppName, outDirectory: string, label: string | undefined): Promise<Metafile> {
  const result = await build({
    absWorkingDir: webDirectory,
    entryPoints: { [name]: APPS[name].entry },
    splitting: true,
    chunkNames: `${name}-chunk-[hash]`,
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    jsx: "automatic",
    jsxImportSource: "preact",
    entryNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    outdir: outDirectory,
    metafile: true,
    logLevel: "warning",
    ...(label === undefined ? {} : { banner: { js: `/* ${label.replaceAll("*/", "")} */` } }),
  });
  return result.metafile;
}

async function writeManifest(outDirectory: string, metafile: Metafile): Promise<WebManifest> {
  const manifest: WebManifest = { files: {}, apps: {}, serviceWorkers: {} };
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    const name = path.basename(output);
    const contents = await readFile(path.join(outDirectory, name));
    manifest.files[name] = {
      contentType: CONTENT_TYPES[path.extname(name)] ?? "application/octet-stream",
      bytes: contents.length,
      gzipBytes: gzipSync(contents, { level: 9 }).length,
    };
    const app = Object.entries(APPS).find(([, definition]) => meta.entryPoint === definition.entry);
    if (app !== undefined) {
      const [appName, definition] = app;
      const html = `${appName}.html`;
      const style = meta.cssBundle === undefined ? undefined : path.basename(meta.cssBundle);
      manifest.apps[appName] = { html, script: name, style };
      await writeFile(path.join(outDirectory, html), shell(definition.title, name, style));
    }
  }
  return manifest;
}

/**
 * The till's service worker (web/till/sw.ts) with this build's files to cache: the shell (/till) and
 * every file of the till's build (`tillFiles`: its script, its style and the chunks of the screens it
 * loads on demand, which must open offline too). Its cache is named after the shell and those
 * content-hashed files, so a build that changes anything is a new cache (and a new sw.js, which the
 * browser installs).
 */
async function buildServiceWorker(outDirectory: string, manifest: WebManifest, tillFiles: string[]): Promise<string> {
  const till = manifest.apps.till;
  if (till === undefined) throw new Error("web build: the till app was not built");
  const paths = ["/till", ...tillFiles.sort().map((file) => `/assets/${file}`)];
  const shellHash = createHash("sha256")
    .update(await readFile(path.join(outDirectory, till.html)))
    .update(paths.join("\n"))
    .digest("hex");
  const file = "till-sw.js";
  await build({
    absWorkingDir: webDirectory,
    entryPoints: ["till/sw.ts"],
    outfile: path.join(outDirectory, file),
    bundle: true,
    format: "iife",
    target: "es2022",
    minify: true,
    legalComments: "none",
    define: {
      PRECACHE_PATHS: JSON.stringify(paths),
      CACHE_NAME: JSON.stringify(`till-shell-${shellHash.slice(0, 16)}`),
    },
    logLevel: "warning",
  });
  return file;
}

/**
 * The files a page loads before it can run: the app's script and every chunk it imports statically
 * (a shared chunk is part of the first load; a lazily imported page's chunk is not).
 */
function firstLoadFiles(script: string, metafile: Metafile): string[] {
  const files = new Set<string>();
  const pending = [script];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (files.has(name)) continue;
    files.add(name);
    const output = Object.entries(metafile.outputs).find(([output]) => path.basename(output) === name)?.[1];
    for (const imported of output?.imports ?? []) {
      if (imported.kind === "import-statement") pending.push(path.basename(imported.path));
    }
  }
  return [...files];
}

const firstLoadBytes = (script: string, manifest: WebManifest, metafile: Metafile) =>
  firstLoadFiles(script, metafile).reduce((sum, name) => sum + (manifest.files[name]?.gzipBytes ?? 0), 0);

function overBudget(manifest: WebManifest, metafile: Metafile): string[] {
  return Object.entries(manifest.apps).flatMap(([appName, app]) => {
    const budget = APPS[appName as AppName].scriptBudgetBytes;
    const size = firstLoadBytes(app.script, manifest, metafile);
    return size > budget ? [`${appName}: ${size} B gzipped > ${budget} B`] : [];
  });
}

function report(manifest: WebManifest): string {
  const lines = Object.entries(manifest.files).map(
    ([name, file]) =>
      `  ${name.padEnd(36)} ${String(file.bytes).padStart(8)} B  ${String(file.gzipBytes).padStart(7)} B gzipped`,
  );
  const workers = Object.entries(manifest.serviceWorkers).map(
    ([app, name]) => `  ${name.padEnd(36)} (${app}'s service worker)`,
  );
  return `web build (${Object.keys(manifest.apps).join(", ")}):\n${[...lines, ...workers].join("\n")}\n`;
}

if (import.meta.main) {
  await buildWeb({ quiet: process.argv.includes("--quiet") });
}
