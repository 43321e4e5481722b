import { spawn } from "node:child_process";

/** Runs a service entry point as a real process with only the given environment (plus PATH). */
export function startServiceProcess(script: string, environment: Record<string, string>) {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH, ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
  });
  // Read too, or a process writing more than a pipe holds to standard error blocks; kept apart so
  // waitForOutput sees standard output only, and shown when a test fails.
  let errorOutput = "";
  child.stderr.on("data", (chunk) => {
    errorOutput += String(chunk);
  });
  // 'close', not 'exit': the process has ended and its output pipes are closed too (a pipe still open
  // keeps the test file's worker from exiting).
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return {
    output: () => output,
    errorOutput: () => errorOutput,
    /** Waits until standard output contains `text`, or the timeout passes. */
    waitForOutput: async (text: string, timeoutMs = 180_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    /** Kills the process outright (SIGKILL), as a crash or an OOM kill would; resolves once it is gone. */
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    /** Sends SIGTERM and resolves with the exit code. */
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
