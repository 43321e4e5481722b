import { spawn } from "node:child_process";
import { once } from "node:events";

/**
 * The chaos run's short form (npm run chaos -- --short): the deployment shape on a PostgreSQL of its
 * own, with pools killed mid-job, a database crash and a ten-second outage, then its checks. The run
 * itself decides (exit code 0 only when every check passes); the report is shown when it fails.
 */
test("the short chaos run passes every check", async () => {
  const child = spawn(process.execPath, ["scripts/chaos/main.ts", "--short"], {
    env: { PATH: process.env.PATH },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    output += String(chunk);
  });
  const [code] = (await once(child, "exit")) as [number | null];
  expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining("chaos run passed") });
}, 900_000);
