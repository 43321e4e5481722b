import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";

/**
 * The subset of kustomize that k8s/ uses, so the suite can build it on a machine without kubectl:
 * `resources` (files and directories), `namespace`, and JSON 6902 `patches` with a kind/name target.
 * Any other field is refused rather than ignored, so the loader cannot silently build something other
 * than `kubectl kustomize` would (tests/deploy/k8s.test.ts compares the two where kubectl exists).
 */

export type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
};

type Operation = { op: "add" | "replace" | "remove"; path: string; value?: unknown };
type Patch = { target: { kind?: string; name?: string }; patch: string };

const SUPPORTED_FIELDS = new Set(["apiVersion", "kind", "namespace", "resources", "patches"]);
const CLUSTER_SCOPED_KINDS = new Set(["Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition"]);

function applyOperation(object: KubeObject, operation: Operation): void {
  const keys = operation.path
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));
  const last = keys.pop();
  let parent: unknown = object;
  for (const key of keys) {
    parent = (parent as Record<string, unknown>)[key];
    if (typeof parent !== "object" || parent === null) {
      throw new Error(`patch path ${operation.path} does not exist in ${object.kind}/${object.metadata.name}`);
    }
  }
  const container = parent as Record<string, unknown>;
  if (last === undefined || (operation.op !== "add" && !(last in container))) {
    throw new Error(`patch path ${operation.path} does not exist in ${object.kind}/${object.metadata.name}`);
  }
  if (operation.op === "remove") {
    delete container[last];
  } else {
    container[last] = structuredClone(operation.value);
  }
}

export function buildKustomization(directory: string): KubeObject[] {
  const file = path.join(directory, "kustomization.yaml");
  if (!existsSync(file)) {
    throw new Error(`${directory} has no kustomization.yaml`);
  }
  const kustomization = parse(readFileSync(file, "utf8")) as {
    namespace?: string;
    resources?: string[];
    patches?: Patch[];
  };
  const unsupported = Object.keys(kustomization).filter((field) => !SUPPORTED_FIELDS.has(field));
  if (unsupported.length > 0) {
    throw new Error(`${file}: fields this loader does not implement: ${unsupported.join(", ")}`);
  }
  const objects: KubeObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const target = path.resolve(directory, resource);
    if (statSync(target).isDirectory()) {
      objects.push(...buildKustomization(target));
    } else {
      for (const document of parseAllDocuments(readFileSync(target, "utf8"))) {
        if (document.errors.length > 0) {
          throw new Error(`${target}: ${document.errors[0]?.message}`);
        }
        objects.push(document.toJS() as KubeObject);
      }
    }
  }
  for (const { target, patch } of kustomization.patches ?? []) {
    const matching = objects.filter(
      (object) =>
        (target.kind === undefined || object.kind === target.kind) &&
        (target.name === undefined || object.metadata.name === target.name),
    );
    if (matching.length === 0) {
      throw new Error(`${file}: a patch targets nothing (${JSON.stringify(target)})`);
    }
    for (const object of matching) {
      for (const operation of parse(patch) as Operation[]) {
        applyOperation(object, operation);
      }
    }
  }
  if (kustomization.namespace !== undefined) {
    for (const object of objects.filter((each) => !CLUSTER_SCOPED_KINDS.has(each.kind))) {
      object.metadata.namespace = kustomization.namespace;
    }
  }
  return objects;
}
