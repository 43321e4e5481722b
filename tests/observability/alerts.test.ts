import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import YAML from "yaml";

const run = promisify(execFile);
const directory = "observability/alerts";

test("the alerting rules are valid and pass their promtool unit tests", async () => {
  const checked = await run("promtool", ["check", "rules", "pos-platform.rules.yml"], { cwd: directory });
  expect(checked.stdout).toContain("SUCCESS");
  const tested = await run("promtool", ["test", "rules", "tests.yml"], { cwd: directory });
  expect(tested.stdout).toContain("SUCCESS");
});

test("every alert has a unit test and a runbook section its annotation points at", async () => {
  const rules = YAML.parse(await readFile(`${directory}/pos-platform.rules.yml`, "utf8")) as {
    groups: { rules: { alert: string; annotations: { runbook_url: string } }[] }[];
  };
  const tests = await readFile(`${directory}/tests.yml`, "utf8");
  const runbooks = await readFile("docs/runbooks.md", "utf8");
  const anchors = new Set([...runbooks.matchAll(/^## (\S+)/gm)].map((match) => match[1]?.toLowerCase()));
  const alerts = rules.groups.flatMap((group) => group.rules);
  expect(alerts.length).toBeGreaterThanOrEqual(6);
  for (const rule of alerts) {
    expect(tests).toContain(`alertname: ${rule.alert}`);
    expect(rule.annotations.runbook_url).toBe(`docs/runbooks.md#${rule.alert.toLowerCase()}`);
    expect(anchors).toContain(rule.alert.toLowerCase());
  }
});
