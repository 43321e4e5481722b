import type { ComponentType, JSX } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * A page or screen loaded on first visit (its own chunk, web/build.ts): an app's first load stays
 * within its budget while what is opened now and then arrives when asked for. The till's chunks are in
 * its service worker's cache, so they open offline too.
 */
export function lazyPage(load: () => Promise<() => JSX.Element>): () => JSX.Element;
export function lazyPage<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): (props: Props) => JSX.Element;
export function lazyPage<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): (props: Props) => JSX.Element {
  let loaded: ComponentType<Props> | undefined;
  return function LazyPage(props: Props) {
    const [Loaded, setLoaded] = useState<{ page: ComponentType<Props> } | undefined>(
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
    return Loaded === undefined ? <p class="muted">Loading…</p> : <Loaded.page {...props} />;
  };
}
