import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/**
 * The browser apps' build output (web/build.ts): content-hashed files and each app's shell, listed by
 * manifest.json. Read from disk once, on first use, so the API starts whether or not the apps were
 * built (the tests, `make run` and the image build them first); only files the manifest names are served.
 */
const buildDirectory = fileURLToPath(new URL("../../../web/dist/", import.meta.url));

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

let loaded: BuiltAssets | undefined;

export function builtAssets(): BuiltAssets {
  loaded ??= load();
  return loaded;
}

function load(): BuiltAssets {
  const manifestFile = `${buildDirectory}manifest.json`;
  if (!existsSync(manifestFile)) {
    return { file: () => undefined, shell: () => undefined, serviceWorker: () => undefined };
  }
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestFile, "utf8")));
  const files = new Map(
    Object.entries(manifest.files).map(([name, file]) => [
      name,
      { contentType: file.contentType, contents: readFileSync(`${buildDirectory}${name}`) },
    ]),
  );
  const shells = new Map(
    Object.entries(manifest.apps).map(([app, entry]) => [app, readFileSync(`${buildDirectory}${entry.html}`)]),
  );
  const workers = new Map(
    Object.entries(manifest.serviceWorkers).map(([app, file]) => [app, readFileSync(`${buildDirectory}${file}`)]),
  );
  return {
    file: (name) => files.get(name),
    shell: (app) => shells.get(app),
    serviceWorker: (app) => workers.get(app),
  };
}
