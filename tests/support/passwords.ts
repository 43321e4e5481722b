import { randomBytes, scryptSync } from "node:crypto";

/**
 * A hash as stored before the parameters moved to N=2^13, r=8, p=10: N=2^15, r=8, p=1, in the same
 * `scrypt$N$r$p$salt$key` layout, for tests of the upgrade at the next successful check.
 */
export function legacyPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$32768$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
}

export const CURRENT_HASH_PREFIX = "scrypt$8192$8$10$";
