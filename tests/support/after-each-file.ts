/**
 * Runs in every test file. slonik's logger (roarr) adds an 'error' listener to the process's stdout
 * when it loads, and removes it only when another copy replaces it in the same global object. Jest
 * gives each test file its own global object and module registry but shares the worker's stdout, so
 * without this a listener would pile up per test file (MaxListenersExceededWarning after ten).
 */
afterAll(() => {
  (globalThis as { ROARR?: { teardown?: () => void } }).ROARR?.teardown?.();
});
