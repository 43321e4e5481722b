import { customAlphabet } from "nanoid";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** 24 base62 characters carry 142 random bits: enough for identifiers that act as capabilities. */
const randomPart = customAlphabet(BASE62, 24);

/** 32 base62 characters carry 190 random bits, for secrets. */
export const randomSecret = customAlphabet(BASE62, 32);

/** An opaque, prefixed identifier such as `pay_…` or `mch_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomPart()}`;
}
