import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import path from "node:path";
import { freePort } from "../../src/platform/db/embedded.ts";

/**
 * Runs a staged release the way the chart does: the migration job, then the API and one worker
 * pool, each with only the environment a pod would have and, when this process is root, as the
 * image's non-root user, to whom the root-owned release is read-only as the image's root filesystem
 * is. Succeeds once both answer /readyz with 200 and then exit 0 on SIGTERM.
 */

type User = { uid: number; gid: number } | undefined;

type Role = { name: string; env: Record<string, string>; readyUrl: string };

/** `node`: the release's own Node binary, which its user can run wherever the checkout lies. */
type Release = { directory: string; user: User; env: Record<string, string>; node: string };

function start(
  { directory, user, env: imageEnv, node }: Release,
  role: Pick<Role, "name" | "env">,
  databaseUrl: string,
): { child: ChildProcess; output: () => string } {
  const child = spawn(node, [path.join("dist/services", role.name, "main.js")], {
    cwd: directory,
    // A pod's environment: the image's ENV and the pod's own, nothing from the developer's shell, no
    // node_modules/.bin on PATH.
    env: {
      PATH: "/usr/bin:/bin",
      ...imageEnv,
      DATABASE_URL: databaseUrl,
      // A pod gets this key from its Secret; any 32 bytes do for a smoke test.
      WEBHOOK_SECRET_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "info",
      ...role.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    ...(process.getuid?.() === 0 ? user : undefined),
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

async function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) {
    return child.exitCode;
  }
  const [code] = (await once(child, "exit")) as [number | null];
  return code;
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    child.exitCode === null
      ? `${url} did not answer 200 within ${timeoutMs} ms`
      : `exited with ${child.exitCode} before ${url} answered 200`,
  );
}

export type SmokeResult = { migrateExit: number | null; ready: string[]; stopExits: Record<string, number | null> };

export async function smokeTest(release: Release, databaseUrl: string, timeoutMs = 30_000): Promise<SmokeResult> {
  const migrate = start(release, { name: "migrate", env: {} }, databaseUrl);
  const migrateExit = await exitCode(migrate.child);
  if (migrateExit !== 0) {
    throw new Error(`the migration job exited ${migrateExit}:\n${migrate.output()}`);
  }

  const apiPort = await freePort();
  const poolPort = await freePort();
  const roles: Role[] = [
    { name: "api", env: { PORT: String(apiPort), METRICS_PORT: "0" }, readyUrl: `http://127.0.0.1:${apiPort}/readyz` },
    {
      name: "code-expiry",
      env: { WORKER_HTTP_PORT: String(poolPort) },
      readyUrl: `http://127.0.0.1:${poolPort}/readyz`,
    },
  ];
  const running = roles.map((role) => ({ role, ...start(release, role, databaseUrl) }));
  const ready: string[] = [];
  const stopExits: Record<string, number | null> = {};
  try {
    for (const { role, child, output } of running) {
      try {
        await waitUntilReady(role.readyUrl, child, timeoutMs);
      } catch (error) {
        throw new Error(`${role.name}: ${(error as Error).message}; output:\n${output()}`);
      }
      ready.push(role.name);
    }
  } finally {
    for (const { role, child } of running) {
      child.kill("SIGTERM");
      stopExits[role.name] = await exitCode(child);
    }
  }
  return { migrateExit, ready, stopExits };
}
