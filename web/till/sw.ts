/**
 * The till's service worker: the till opens without the network. It keeps this build's page (the
 * /till shell), script, style and chunks (the screens loaded on demand, which must open offline too)
 * in a cache named after the build, and deletes other builds' caches when it takes over, so a new
 * build replaces the old one on the next load. Pages under /till are
 * asked of the network first (online, the page is always the newest) and answered from the cache
 * when the network fails, errs (5xx) or is slow. Hashed assets come from the cache. Nothing else is
 * touched: the /v1 API above all goes to the network, never cached (money state must be live; the
 * till keeps its catalog and its outbox itself).
 *
 * Built by web/build.ts as its own bundle with the build's file list; served at /till/sw.js.
 */

/** The build's shell and assets (paths) and the cache named after them; set by web/build.ts. */
declare const PRECACHE_PATHS: readonly string[];
declare const CACHE_NAME: string;

// The worker's own types (the "webworker" lib cannot sit beside "dom" in one program).
type ExtendableEvent = Event & { waitUntil: (promise: Promise<unknown>) => void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith: (response: Promise<Response>) => void };
type WorkerScope = {
  addEventListener: ((type: "install" | "activate", listener: (event: ExtendableEvent) => void) => void) &
    ((type: "fetch", listener: (event: FetchEvent) => void) => void);
  skipWaiting: () => Promise<void>;
  clients: { claim: () => Promise<void> };
  location: Location;
};
const worker = self as unknown as WorkerScope;

const CACHE_PREFIX = "till-shell-";
const SHELL_PATH = "/till";
const TILL_PAGE = /^\/till(\/[A-Za-z0-9_-]{1,64})?$/;
/** A page the network has not answered within this long comes from the cache (a link that hangs). */
const NAVIGATION_TIMEOUT_MS = 3_000;

worker.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      await cache.addAll([...PRECACHE_PATHS]);
      // The new build takes over at once: the pages it serves name only files it has cached.
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
      }
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === "navigate" && TILL_PAGE.test(url.pathname)) {
    event.respondWith(page(request));
  } else if (url.pathname !== SHELL_PATH && PRECACHE_PATHS.includes(url.pathname)) {
    event.respondWith(asset(request));
  }
});

async function page(request: Request): Promise<Response> {
  const network = fetch(request);
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), NAVIGATION_TIMEOUT_MS));
  const answered = await Promise.race([network.catch(() => undefined), timeout]);
  if (answered !== undefined && answered.status < 500) return answered;
  return (await caches.match(SHELL_PATH, { cacheName: CACHE_NAME })) ?? network;
}

async function asset(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: CACHE_NAME })) ?? fetch(request);
}
