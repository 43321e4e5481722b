import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";

/**
 * The failover scenario's short form (scripts/chaos/failover.ts, as `npm run chaos:failover --
 * --replication synchronous --short` runs it): a PostgreSQL 15 primary and a synchronous standby
 * behind a TCP switch, the API and every pool on the switch, 12 s of payments, sales and payouts; the
 * primary's postmaster SIGKILLed, the standby promoted, the switch moved. Every check of issue 45's
 * point 2 must pass: nothing acknowledged lost, nothing settled or paid out twice, the ledger balanced,
 * every event delivered, only 503 in the gap and 2xx within 10 s of the switch, every pool claiming and
 * every LISTEN back on the new primary without a restart, a till's waiting request woken.
 *
 * The run waits for each condition with its own deadline (30 s and more: the machine may be loaded);
 * it needs Debian's PostgreSQL 15 binaries (scripts/install-test-tools.sh installs them).
 */

const PG_CTL = "/usr/lib/postgresql/15/bin/pg_ctl";
/** The names of the checks the run reports (PASS or FAIL), each of which must be there and pass. */
const EXPECTED_CHECKS = [
  "every acknowledged payment, sale and payout is on the new primary",
  "every paid payment settled exactly once",
  "no payout executed twice",
  "the ledger is balanced",
  "every event delivered and everything finished",
  "the API answered 503 in the gap, never another 5xx, never hung",
  "the API serves within 10 s of the switch, no process restarted",
  "every pool claims work on the new primary without a restart",
  "is back on the new primary",
  "a till's waiting request is woken on the new primary",
];

let child: ChildProcess | undefined;

afterAll(async () => {
  // A run cut short (the test's timeout): SIGTERM makes it stop its servers, switch and services.
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
  }
});

test("a synchronous standby takes over under load: nothing acknowledged lost, 503 in the gap, all back", async () => {
  expect(existsSync(PG_CTL) ? "PostgreSQL 15 binaries present" : `${PG_CTL} missing`).toBe(
    "PostgreSQL 15 binaries present",
  );
  const run = spawn(process.execPath, ["scripts/chaos/failover.ts", "--replication", "synchronous", "--short"], {
    env: { ...process.env, NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = run;
  let output = "";
  run.stdout?.on("data", (chunk: Buffer) => {
    output += String(chunk);
  });
  run.stderr?.on("data", (chunk: Buffer) => {
    output += String(chunk);
  });
  const [code] = (await once(run, "close")) as [number | null];
  const reported = output.split("\n").filter((line) => /^(PASS|FAIL) /.test(line));
  const failed = reported.filter((line) => line.startsWith("FAIL "));
  const absent = EXPECTED_CHECKS.filter((name) => !reported.some((line) => line.includes(name)));
  // On failure the whole report (and why the run stopped) is in the message.
  expect({ code, failed, absent, output: code === 0 && failed.length === 0 ? "" : output }).toEqual({
    code: 0,
    failed: [],
    absent: [],
    output: "",
  });
  const figure = output.split("\n").find((line) => line.startsWith("figure: "));
  process.stdout.write(`${figure}\n`);
}, 600_000);
