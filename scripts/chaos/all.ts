import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { parseArgs } from "node:util";

/**
 * npm run chaos -- [--seconds N] [--short]
 *
 * The whole chaos run, its parts in turn, each a process of its own (each starts its own servers and
 * must not share the machine's two cores with another):
 * 1. the faults against the deployment shape (./main.ts, given `--seconds` and `--short`);
 * 2. the failover's long form (./failover.ts, `--short` passed on): synchronous, then asynchronous
 *    replication, the standby caught up;
 * 3. asynchronous replication with the standby's link stalled 2 s before the kill: what an operator
 *    risks without synchronous commit (the acknowledged writes lost are counted, not failed).
 * Every part runs even when one fails; the run exits 1 if any did, after repeating each part's verdict
 * and the failover's figures. SIGINT or SIGTERM is passed to the running part, which stops what it
 * started; no later part starts.
 */

const { values } = parseArgs({
  options: { seconds: { type: "string" }, short: { type: "boolean", default: false } },
});
const short = values.short ? ["--short"] : [];
const parts: { name: string; args: string[] }[] = [
  {
    name: "faults against the deployment shape",
    args: ["scripts/chaos/main.ts", ...short, ...(values.seconds === undefined ? [] : ["--seconds", values.seconds])],
  },
  {
    name: "failover, synchronous and asynchronous",
    args: ["scripts/chaos/failover.ts", "--replication", "both", ...short],
  },
  {
    name: "failover, asynchronous, the standby 2 s behind",
    args: ["scripts/chaos/failover.ts", "--replication", "asynchronous", "--stall-replication-ms", "2000", ...short],
  },
];

let running: ChildProcess | undefined;
let signalled: NodeJS.Signals | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    signalled = signal;
    running?.kill(signal);
  });
}

/** Runs one part with its output shown as it comes; resolves with its exit code and its figure lines. */
async function runPart(args: readonly string[]): Promise<{ code: number | null; figures: string[] }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  running = child;
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += String(chunk);
  });
  const [code] = (await once(child, "close")) as [number | null];
  running = undefined;
  return { code, figures: output.split("\n").filter((line) => line.startsWith("figure: ")) };
}

const verdicts: string[] = [];
const figures: string[] = [];
for (const part of parts) {
  if (signalled !== undefined) {
    break;
  }
  process.stdout.write(`\n== chaos: ${part.name} (node ${part.args.join(" ")})\n`);
  const result = await runPart(part.args);
  verdicts.push(`${result.code === 0 ? "PASS" : "FAIL"} ${part.name} (exit ${result.code})`);
  figures.push(...result.figures);
}
process.stdout.write(`\n== chaos: summary\n${[...verdicts, ...figures].join("\n")}\n`);
const passed =
  signalled === undefined && verdicts.length === parts.length && verdicts.every((v) => v.startsWith("PASS"));
process.stdout.write(passed ? "chaos (all parts) passed\n" : "chaos (all parts) FAILED\n");
process.exit(passed ? 0 : 1);
