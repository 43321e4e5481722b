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
  // A backstop only: no test waits on a guessed duration, but a loaded 2-core machine is slow.
  testTimeout: 180_000,
};
