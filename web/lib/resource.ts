import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "./api/client.ts";

export type Resource<T> = { state: "loading" } | { state: "loaded"; value: T } | { state: "failed"; error: ApiError };

const LOADING = { state: "loading" } as const;

/**
 * Loads data for a screen and reloads it when `keys` change or `reload` is called; the last load wins.
 * What was loaded for other keys is never shown as theirs: in the render where the keys change (before
 * the effect that reloads has run) the resource is already loading.
 */
export function useResource<T>(load: () => Promise<T>, keys: readonly unknown[]): [Resource<T>, () => void] {
  // The resource beside the keys it was loaded for.
  const [loaded, setLoaded] = useState<[readonly unknown[], Resource<T>]>([keys, LOADING]);
  const [generation, setGeneration] = useState(0);
  // The caller's keys (and reload's generation) decide when to load again, not `load`'s identity.
  useEffect(() => {
    let current = true;
    setLoaded([keys, LOADING]);
    const settle = (resource: Resource<T>) => current && setLoaded([keys, resource]);
    load().then(
      (value) => settle({ state: "loaded", value }),
      (error: unknown) =>
        settle({
          state: "failed",
          error:
            error instanceof ApiError
              ? error
              : new ApiError({ status: 0, type: "api_error", code: "client_error", message: String(error) }),
        }),
    );
    return () => {
      current = false;
    };
  }, [...keys, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return [keys.some((key, index) => key !== loaded[0][index]) ? LOADING : loaded[1], reload];
}
