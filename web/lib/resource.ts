import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "./api/client.ts";

export type Resource<T> = { state: "loading" } | { state: "loaded"; value: T } | { state: "failed"; error: ApiError };

/** Loads data for a screen and reloads it when `keys` change or `reload` is called; the last load wins. */
export function useResource<T>(load: () => Promise<T>, keys: readonly unknown[]): [Resource<T>, () => void] {
  const [resource, setResource] = useState<Resource<T>>({ state: "loading" });
  const [generation, setGeneration] = useState(0);
  // The caller's keys (and reload's generation) decide when to load again, not `load`'s identity.
  useEffect(() => {
    let current = true;
    setResource({ state: "loading" });
    load().then(
      (value) => current && setResource({ state: "loaded", value }),
      (error: unknown) =>
        current &&
        setResource({
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
  return [resource, reload];
}
