import type { KubeObject } from "./kustomize.ts";

/**
 * The kubernetes-models class that validates an object against its Kubernetes schema: core groups,
 * and the CRDs whose models are published (KEDA, the Prometheus Operator). Undefined for other kinds.
 */
export async function modelFor(object: KubeObject): Promise<{ validate: () => void } | undefined> {
  const [group, version] = object.apiVersion.includes("/") ? object.apiVersion.split("/") : ["", object.apiVersion];
  const crds: Record<string, string> = {
    "keda.sh": `@kubernetes-models/keda/keda.sh/${version}`,
    "monitoring.coreos.com": `@kubernetes-models/prometheus-operator/monitoring.coreos.com/${version}`,
  };
  const core = ["", "apps", "batch", "policy", "autoscaling"].includes(group ?? "") || group?.endsWith(".k8s.io");
  const specifier = core ? `kubernetes-models/${object.apiVersion}` : crds[group ?? ""];
  if (specifier === undefined) {
    return undefined;
  }
  const module = (await import(specifier)) as Record<string, new (data: unknown) => { validate: () => void }>;
  const Model = module[object.kind];
  if (Model === undefined) {
    throw new Error(`${specifier} has no model for ${object.kind}`);
  }
  return new Model(object);
}
