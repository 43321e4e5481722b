import { signal } from "@preact/signals";

/**
 * A list page's filters and page in the URL's query (`?status=paid&from=…`), so Back from a detail
 * page, a reload or a shared link shows the same list. Kept apart from the router so the till, which
 * has no such lists, does not carry it.
 */
export const currentQuery = signal(new URLSearchParams(location.search));

addEventListener("popstate", () => {
  currentQuery.value = new URLSearchParams(location.search);
});

/**
 * Puts `values` in the current URL's query in place (replaceState: a filter change is not a step to
 * go Back through); empty values are left out.
 */
export function replaceQuery(values: Record<string, string | undefined>): void {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== "") query.set(name, value);
  }
  const text = query.toString();
  history.replaceState(null, "", `${location.pathname}${text === "" ? "" : `?${text}`}`);
  currentQuery.value = query;
}
