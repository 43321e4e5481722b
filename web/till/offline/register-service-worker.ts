/**
 * Registers the till's service worker (built by web/build.ts, served at /till/sw.js), which keeps the
 * till's page, script and style so that /till opens without the network. Its scope is /till, wider
 * than its folder (/till/), which the server allows with a Service-Worker-Allowed header.
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/till/sw.js", { scope: "/till" }).catch(() => {
    // Not fatal: the till works online without it; only a reload while offline needs it.
  });
}
