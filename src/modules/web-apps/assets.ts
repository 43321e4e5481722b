import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The browser apps' build output (web/build.ts): content-hashed files and each app's shell, listed by
 * manifest.json, in the configured directory (WEB_BUILD_DIRECTORY). Read from disk once, on first use,
 * so the API starts whether or not the apps were built (the tests, `make run` and the image build them
 * first); only files the manifest names are served.
 */

const manifestSchema = z.object({
  files: z.record(z.string(), z.object({ contentType: z.string(), bytes: z.number(), gzipBytes: z.number() })),
  apps: z.record(z.string(), z.object({ html: z.string(), script: z.string(), style: z.string().optional() })),
  serviceWorkers: z.record(z.string(), z.string()).default({}),
});

export type BuiltAssets = {
  file: (name: string) => { contentType: string; contents: Buffer } | undefined;
  shell: (app: string) => Buffer | undefined;
  /** An app's service worker script. */
  serviceWorker: (app: string) => Buffer | undefined;
};

const loaded = new Map<string, BuiltAssets>();

export function builtAssets(buildDirectory: string): BuiltAssets {
  let assets = loaded.get(buildDirectory);
  if (assets === undefined) {
    assets = load(buildDirectory);
    loaded.set(buildDirectory, assets);
  }
  return assets;
}

function load(buildDirectory: string): BuiltAssets {
  const inBuild = (name: string) => path.join(buildDirectory, name);
  const manifestFile = inBuild("manifest.json");
  if (!existsSync(manifestFile)) {
    return { file: () => undefined, shell: () => undefined, serviceWorker: () => undefined };
  }
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestFile, "utf8")));
  const files = new Map(
    Object.entries(manifest.files).map(([name, file]) => [
      name,
      { contentType: file.contentType, contents: readFileSync(inBuild(name)) },
    ]),
  );
  const shells = new Map(Object.entries(manifest.apps).map(([app, entry]) => [app, readFileSync(inBuild(entry.html))]));
  const workers = new Map(
    Object.entries(manifest.serviceWorkers).map(([app, file]) => [app, readFileSync(inBuild(file))]),
  );
  return {
    file: (name) => files.get(name),
    shell: (app) => shells.get(app),
    serviceWorker: (app) => workers.get(app),
  };
}
