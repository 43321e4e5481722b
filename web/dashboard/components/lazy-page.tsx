import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";

type Page = () => JSX.Element;

/**
 * A page loaded on first visit (its own chunk, web/build.ts): the dashboard's first load stays within
 * its budget while pages the owner opens now and then arrive when asked for.
 */
export function lazyPage(load: () => Promise<Page>): Page {
  let loaded: Page | undefined;
  return function LazyPage() {
    const [Loaded, setLoaded] = useState<{ page: Page } | undefined>(
      loaded === undefined ? undefined : { page: loaded },
    );
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (Loaded !== undefined) return;
      load().then(
        (page) => {
          loaded = page;
          setLoaded({ page });
        },
        () => setFailed(true),
      );
    }, []);
    if (failed) {
      return (
        <p class="form-error" role="alert">
          This page could not be loaded. Check the connection and reload.
        </p>
      );
    }
    return Loaded === undefined ? <p class="muted">Loading…</p> : <Loaded.page />;
  };
}
