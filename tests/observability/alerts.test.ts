import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import YAML from "yaml";

const run = promisify(execFile);
const directory = "helm/pos-platform/files/alerts";

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

test("the Grafana dashboard is valid JSON whose queries use only metrics the services export", async () => {
  const dashboard = JSON.parse(await readFile("helm/pos-platform/files/dashboards/pos-platform.json", "utf8")) as {
    panels: { type: string; targets?: { expr: string }[] }[];
  };
  const expressions = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  expect(expressions.length).toBeGreaterThanOrEqual(15);
  const exported = new Set(
    [...(await run("grep", ["-rhoE", 'name: "[a-z_]+"', "src"])).stdout.matchAll(/name: "([a-z_]+)"/g)].map(
      (match) => match[1],
    ),
  );
  // prom-client's default process metrics, collected on every deployment.
  for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes"]) {
    exported.add(name);
  }
  for (const expression of expressions) {
    for (const [, name] of expression.matchAll(/\b([a-z_]+)(?:_bucket|_count|_sum)?(?=\{|\[)/g)) {
      const base = name?.replace(/_(bucket|count|sum)$/, "") ?? "";
      expect({ expression, metric: exported.has(base) ? "exported" : base }).toEqual({
        expression,
        metric: "exported",
      });
    }
  }
});
