import { domainRegistry } from "../../src/platform/telemetry/domain-registry.ts";

/** The current value of one sample of a domain metric (0 when it has not been recorded yet). */
export async function sampleValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = domainRegistry.getSingleMetric(name);
  if (metric === undefined) {
    throw new Error(`no metric ${name}`);
  }
  const { values } = await metric.get();
  // Counters have one sample per label set; histograms several (buckets, sum, count): take the count.
  const matches = values.filter((value) => {
    const sampleName = (value as { metricName?: string }).metricName;
    return sampleName === undefined || sampleName === name || sampleName === `${name}_count`;
  });
  const sample = matches.find((value) =>
    Object.entries(labels).every(
      ([key, expected]) => String((value.labels as Record<string, unknown>)[key]) === expected,
    ),
  );
  return sample?.value ?? 0;
}
