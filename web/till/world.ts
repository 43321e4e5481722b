import type { WorldName } from "../lib/api.ts";
import { liveAvailable, world } from "../lib/session.ts";

/** The world the till's requests go to: LIVE only once chosen and allowed (an active merchant). */
export const activeWorld = (): WorldName => (world.value === "live" && liveAvailable.value ? "live" : "test");
