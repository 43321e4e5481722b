import { useEffect, useRef } from "preact/hooks";
import { listenForScans } from "./scanner.ts";

/**
 * Where a scan goes: the screen on show registers its handler (Sell adds to the cart, Stock picks the
 * product to receive or count). One document-level listener serves them all, so a scan lands wherever
 * the focus is.
 */
let current: ((code: string) => void) | undefined;

export function startScanning(): () => void {
  return listenForScans((code) => current?.(code));
}

/**
 * Makes `handler` the scan handler while the calling component is mounted (its latest version); a
 * window that takes scans over a screen gives them back to the screen when it closes.
 */
export function useScanHandler(handler: (code: string) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const forward = (code: string) => latest.current(code);
    const previous = current;
    current = forward;
    return () => {
      if (current === forward) current = previous;
    };
  }, []);
}
