import { randomBytes } from "node:crypto";
import { openSecret, sealSecret } from "./secret-box.ts";

const secret = "whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";
const oldKey = randomBytes(32);
const newKey = randomBytes(32);

test("a sealed secret opens with its key and the same associated data, and holds no plaintext", () => {
  const sealed = sealSecret({ current: oldKey }, secret, "mch_1/we_1");
  expect(sealed.includes(Buffer.from(secret))).toBe(false);
  expect(openSecret({ current: oldKey }, sealed, "mch_1/we_1")).toBe(secret);
});

test("a ciphertext moved to another endpoint does not open", () => {
  const sealed = sealSecret({ current: oldKey }, secret, "mch_1/we_1");
  expect(() => openSecret({ current: oldKey }, sealed, "mch_1/we_2")).toThrow();
});

test("during a rotation, secrets sealed under the previous key still open; without it they do not", () => {
  const sealedBefore = sealSecret({ current: oldKey }, secret, "mch_1/we_1");
  const rotating = { current: newKey, previous: oldKey };
  expect(openSecret(rotating, sealedBefore, "mch_1/we_1")).toBe(secret);
  const sealedAfter = sealSecret(rotating, secret, "mch_1/we_1");
  expect(openSecret({ current: newKey }, sealedAfter, "mch_1/we_1")).toBe(secret);
  expect(() => openSecret({ current: newKey }, sealedBefore, "mch_1/we_1")).toThrow(/not configured/);
});

test("a tampered ciphertext does not open", () => {
  const sealed = sealSecret({ current: oldKey }, secret, "mch_1/we_1");
  sealed[sealed.length - 1] = (sealed[sealed.length - 1] ?? 0) ^ 1;
  expect(() => openSecret({ current: oldKey }, sealed, "mch_1/we_1")).toThrow();
});
