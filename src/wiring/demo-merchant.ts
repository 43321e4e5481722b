import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { z } from "zod";
import { merchants } from "../modules/merchants/index.ts";
import type { Database } from "../platform/db/pool.ts";
import { randomSecret } from "../platform/ids.ts";

/**
 * The demo merchant of `make run`. Keys are stored only as hashes, so the plaintext the developer was
 * shown is kept in a local, git-ignored file, and the second run prints the same keys. When the file
 * and the database disagree (a reset database, revoked keys) a fresh demo merchant is provisioned.
 */
const demoStateSchema = z.object({
  adminToken: z.string(),
  merchantId: z.string(),
  email: z.string(),
  password: z.string(),
  testKeyId: z.string(),
  testSecretKey: z.string(),
  liveKeyId: z.string(),
  liveSecretKey: z.string(),
});
export type DemoState = z.infer<typeof demoStateSchema>;

function readState(stateFile: string): DemoState | undefined {
  if (!existsSync(stateFile)) {
    return undefined;
  }
  const parsed = demoStateSchema.safeParse(JSON.parse(readFileSync(stateFile, "utf8")));
  return parsed.success ? parsed.data : undefined;
}

async function stillValid(database: Database, state: DemoState): Promise<boolean> {
  try {
    const keys = await merchants.listApiKeys(database, state.merchantId);
    // A key rolled from the dashboard ends at its expires_at: the demo then needs fresh keys too.
    const now = Date.now();
    const active = new Set(
      keys
        .filter((key) => key.revoked_at === null && (key.expires_at === null || key.expires_at.getTime() > now))
        .map((key) => key.id),
    );
    return active.has(state.testKeyId) && active.has(state.liveKeyId);
  } catch {
    return false;
  }
}

export async function provisionDemoMerchant(
  database: Database,
  options: { stateFile: string; adminToken: string | undefined },
): Promise<DemoState> {
  const previous = readState(options.stateFile);
  if (previous !== undefined && (await stillValid(database, previous))) {
    const state = { ...previous, adminToken: options.adminToken ?? previous.adminToken };
    await writeFile(options.stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
    return state;
  }
  const password = `demo-${randomSecret().slice(0, 12)}`;
  const created = await merchants.createMerchant(database, {
    name: "Demo Shop",
    type: "business",
    // A new address each time, so a database that still holds an older demo user never conflicts.
    email: `demo+${randomSecret().slice(0, 6).toLowerCase()}@example.com`,
    password,
    status: "active",
    fee_bps: 150,
    fee_fixed_cents: 0,
    payout_msisdn: "263771234567",
    payout_verified: true,
  });
  const state: DemoState = {
    adminToken: options.adminToken ?? `adm_${randomSecret()}`,
    merchantId: created.merchant.id,
    email: created.email,
    password,
    testKeyId: created.testKey.key.id,
    testSecretKey: created.testKey.secretKey,
    liveKeyId: created.liveKey.key.id,
    liveSecretKey: created.liveKey.secretKey,
  };
  await writeFile(options.stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
  return state;
}
