import { type BodyOf, call, type Schema } from "./call.ts";
import type { ApiClient } from "./client.ts";

/** Till devices paired to the shop (a till signs in as its device; docs/shop.md). */
export type TillDevice = Schema<"TillDevice">;

export const listTillDevices = () => call("get", "/v1/till_devices");

export const revokeTillDevice = (id: string) => call("delete", "/v1/till_devices/{id}", { path: { id } });

/** Opens this paired device's till session. */
export const startDeviceSession = () => call("post", "/v1/session/device", { world: "test", body: {} });

/**
 * Pairing is done with an owner's own short-lived client (the owner signs in on the till; the till's
 * session is not theirs), so these take it.
 */
export const signInOwner = (owner: ApiClient, body: BodyOf<"/v1/session", "post">) =>
  call("post", "/v1/session", { client: owner, world: "test", body });

export const pairTillDevice = (owner: ApiClient, body: BodyOf<"/v1/till_devices", "post">) =>
  call("post", "/v1/till_devices", { client: owner, world: "test", body });

export const revokeTillDeviceAsOwner = (owner: ApiClient, id: string) =>
  call("delete", "/v1/till_devices/{id}", { client: owner, world: "test", path: { id } });

export const signOutOwner = (owner: ApiClient) => call("delete", "/v1/session", { client: owner, world: "test" });
