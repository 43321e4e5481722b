import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { formatSummary, runScenario, violations } from "./runner.ts";
import { scenarios } from "./scenarios.ts";

/**
 * npm run load -- <scenario> --base-url http://localhost:8080 --admin-token … [--seconds N] [--json out.json]
 *   [--sink-listen 0.0.0.0:9797 --sink-url http://this-host:9797]
 *
 * Provisions the scenario's merchants through the operator API (their test keys), runs the scenario
 * and prints a summary; exits 1 when the scenario's expectations are not met. A webhook storm
 * receives the deliveries itself: by default on a loopback port, which a platform on the same machine
 * reaches in the test world; for a remote platform, listen on a reachable address and give its URL.
 */
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    "base-url": { type: "string", default: "http://localhost:8080" },
    "admin-token": { type: "string" },
    seconds: { type: "string" },
    json: { type: "string" },
    "sink-listen": { type: "string", default: "127.0.0.1:0" },
    "sink-url": { type: "string" },
  },
});
const name = positionals[0] ?? "";
const scenario = scenarios[name];
if (scenario === undefined || values["admin-token"] === undefined) {
  process.stderr.write(
    `Usage: npm run load -- <${Object.keys(scenarios).join("|")}> --base-url URL --admin-token TOKEN [--seconds N] [--json FILE]\n`,
  );
  process.exit(2);
}
const baseUrl = values["base-url"] ?? "http://localhost:8080";
const keys: string[] = [];
for (let index = 0; index < scenario.merchants; index += 1) {
  const response = await fetch(`${baseUrl}/admin/v1/merchants`, {
    method: "POST",
    headers: { authorization: `Bearer ${values["admin-token"]}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: `Load ${name} ${index}`,
      email: `load-${Date.now()}-${index}@example.com`,
      password: "load test password",
    }),
  });
  if (!response.ok) {
    throw new Error(`provisioning a merchant failed: ${response.status} ${await response.text()}`);
  }
  keys.push(((await response.json()) as { test_secret_key: string }).test_secret_key);
}
const [sinkHost = "127.0.0.1", sinkPort = "0"] = (values["sink-listen"] ?? "127.0.0.1:0").split(/:(?=\d+$)/);
const summary = await runScenario(name, scenario, {
  baseUrl,
  keys,
  sink: {
    host: sinkHost,
    port: Number(sinkPort),
    ...(values["sink-url"] === undefined ? {} : { publicUrl: values["sink-url"] }),
  },
  ...(values.seconds === undefined ? {} : { durationSeconds: Number(values.seconds) }),
});
process.stdout.write(`${formatSummary(summary)}\n`);
if (values.json !== undefined) {
  await writeFile(values.json, JSON.stringify(summary, null, 2));
}
const broken = violations(scenario, summary);
if (broken.length > 0) {
  process.stdout.write(`expectations NOT met:\n  ${broken.join("\n  ")}\n`);
  process.exit(1);
}
process.stdout.write("expectations met\n");
