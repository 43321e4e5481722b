import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  type KeyObject,
  randomBytes,
} from "node:crypto";

/**
 * Encrypts webhook signing secrets at rest with AES-256-GCM under an operator key. The stored value
 * names the key by an 8-byte fingerprint, so that during a rotation secrets written under the previous
 * key still decrypt. The associated data binds a ciphertext to its endpoint: a value copied onto
 * another row does not decrypt.
 *
 * Layout: version (1) | key fingerprint (8) | IV (12) | tag (16) | ciphertext.
 */
const VERSION = 1;
const FINGERPRINT_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type SecretKeyring = { current: Buffer; previous?: Buffer | undefined };

type PreparedKey = { fingerprint: Buffer; key: KeyObject };
/**
 * Each operator key's fingerprint and key object, made once per key: every delivery opens its
 * endpoint's secret, and hashing the key and importing it again each time was ~7 % of the
 * webhook-delivery pool's CPU under load. Keyed by the configuration's own buffers.
 */
const preparedKeys = new WeakMap<Buffer, PreparedKey>();
function prepared(key: Buffer): PreparedKey {
  let entry = preparedKeys.get(key);
  if (entry === undefined) {
    entry = {
      fingerprint: createHash("sha256").update(key).digest().subarray(0, FINGERPRINT_BYTES),
      key: createSecretKey(key),
    };
    preparedKeys.set(key, entry);
  }
  return entry;
}

export function sealSecret(keyring: SecretKeyring, plaintext: string, associatedData: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const { key, fingerprint } = prepared(keyring.current);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.of(VERSION), fingerprint, iv, cipher.getAuthTag(), ciphertext]);
}

export function openSecret(keyring: SecretKeyring, sealed: Buffer, associatedData: string): string {
  if (sealed[0] !== VERSION) {
    throw new Error("Unknown webhook secret format");
  }
  const keyId = sealed.subarray(1, 1 + FINGERPRINT_BYTES);
  const key = [keyring.current, keyring.previous]
    .flatMap((candidate) => (candidate?.length ? [prepared(candidate)] : []))
    .find((candidate) => candidate.fingerprint.equals(keyId))?.key;
  if (key === undefined) {
    throw new Error("The webhook secret was encrypted with a key that is not configured");
  }
  let offset = 1 + FINGERPRINT_BYTES;
  const iv = sealed.subarray(offset, offset + IV_BYTES);
  offset += IV_BYTES;
  const tag = sealed.subarray(offset, offset + TAG_BYTES);
  offset += TAG_BYTES;
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(offset)), decipher.final()]).toString("utf8");
}

/** Whether `sealed` was encrypted under `key` (so a rotation can skip it). */
export function isSealedWith(key: Buffer, sealed: Buffer): boolean {
  return sealed.subarray(1, 1 + FINGERPRINT_BYTES).equals(prepared(key).fingerprint);
}
