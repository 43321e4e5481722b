/** Tests are ESM TypeScript transformed by SWC; type-checking is `tsc --noEmit` (TypeScript 7 has no compiler API for ts-jest). */
export default {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "typescript" }, target: "es2024" }, module: { type: "es6" } },
    ],
  },
  testMatch: ["<rootDir>/src/**/*.test.ts", "<rootDir>/tests/**/*.test.ts"],
  globalSetup: "<rootDir>/tests/support/global-setup.ts",
  globalTeardown: "<rootDir>/tests/support/global-teardown.ts",
  setupFilesAfterEnv: ["<rootDir>/tests/support/after-each-file.ts"],
  maxWorkers: 2,
  // How long a worker may take to end once its last test file is done before jest kills it and warns
  // "failed to exit gracefully" (default 500 ms). Measured on the 2-core machine: a worker's 'exit'
  // event fires within 1 ms of jest's end message (no handle keeps it alive), but tearing down its
  // 1.6-1.7 GB heap takes another ~0.4 s quiet and more under load, so the default warned on loaded
  // runs though nothing leaked. A handle really left open still keeps the worker alive past this and warns.
  workerGracefulExitTimeout: 10_000,
  // A backstop only: no test waits on a guessed duration, but a loaded 2-core machine is slow.
  testTimeout: 180_000,
};
