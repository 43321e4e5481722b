import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Dashboard passwords and cashier PINs, hashed with scrypt at N=2^13, r=8, p=10: one of OWASP's
 * settings equal in strength to N=2^17, r=8, p=1, chosen because a hash holds 8 MiB of native memory
 * (128 · N · r bytes) where N=2^15, r=8 held 32 MiB. The API hashes up to four at a time (libuv's
 * thread pool) and must stay under 150 MB resident (docs/performance.md, "What the API's RSS is made
 * of"). The parameters travel with each hash; a hash stored under older ones is replaced at its next
 * successful check (`upgradedHash`).
 */
const PARAMETERS = { N: 2 ** 13, r: 8, p: 10 } as const;
const KEY_LENGTH_BYTES = 32;
// Above the largest hash any stored parameters need (N=2^15, r=8: 32 MiB), so old hashes still check.
const SCRYPT_MEMORY_MAX_BYTES = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, parameters: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH_BYTES,
      { ...parameters, maxmem: SCRYPT_MEMORY_MAX_BYTES },
      (error, key) => (error === null ? resolve(key) : reject(error)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS);
  return `scrypt$${PARAMETERS.N}$${PARAMETERS.r}$${PARAMETERS.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/**
 * Whether the password matches the stored hash and, when it does but the hash was made with other
 * parameters than today's, a new hash of it to store in its place (null otherwise). Storing it is the
 * caller's, guarded on the old hash so that a concurrent change of password wins.
 */
export async function verifyPassword(
  password: string,
  stored: string,
): Promise<{ matches: boolean; upgradedHash: string | null }> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || salt === undefined || key === undefined) {
    return { matches: false, upgradedHash: null };
  }
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  const expected = Buffer.from(key, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), parameters);
  const matches = actual.length === expected.length && timingSafeEqual(actual, expected);
  const current = parameters.N === PARAMETERS.N && parameters.r === PARAMETERS.r && parameters.p === PARAMETERS.p;
  return { matches, upgradedHash: matches && !current ? await hashPassword(password) : null };
}
