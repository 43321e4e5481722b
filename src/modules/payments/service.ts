/**
 * Payments as the other modules and the module's own routes and pumps call them, by use case:
 * creation (`creation.ts`), reading (`reading.ts`), refresh from the gateway (`refresh.ts`), ending
 * (`ending.ts`), the pools' claims (`claims.ts`), presentation (`presentation.ts`). The module's
 * invariants are stated in `dependencies.ts`.
 */
export * from "./claims.ts";
export * from "./creation.ts";
export * from "./dependencies.ts";
export * from "./ending.ts";
export * from "./presentation.ts";
export * from "./reading.ts";
export * from "./refresh.ts";
