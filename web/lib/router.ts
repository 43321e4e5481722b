import { signal } from "@preact/signals";

/**
 * A path router in a signal: the apps have a handful of screens, so no router library. Links call
 * `navigate`; the back button is followed through popstate.
 */
export const currentPath = signal(location.pathname);

addEventListener("popstate", () => {
  currentPath.value = location.pathname;
});

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === location.pathname) {
    return;
  }
  if (options.replace) {
    history.replaceState(null, "", path);
  } else {
    history.pushState(null, "", path);
  }
  currentPath.value = path;
}
