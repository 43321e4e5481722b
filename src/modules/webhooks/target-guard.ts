import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { Config } from "../../platform/config.ts";

/**
 * Server-side request forgery guard for webhook targets. A target may only be a public unicast
 * address: loopback, private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * unique-local, multicast, reserved and tunnelling ranges are refused. The check runs at registration
 * and again at delivery, inside the connection's own DNS lookup, so the address that was checked is
 * the address connected to: a name that re-resolves to a private address later (DNS rebinding) is caught.
 *
 * The operator setting `WEBHOOK_PRIVATE_TARGETS` relaxes it: `test_only` (default) lets test-world
 * endpoints reach private addresses (a developer's receiver on their own network), `allow` lets both
 * worlds (on-premises installs), `deny` lets neither.
 */

export class BlockedTargetError extends Error {
  override name = "BlockedTargetError";
  readonly code = "EBLOCKEDTARGET";
}

export function privateTargetsAllowed(setting: Config["webhook"]["privateTargets"], livemode: boolean): boolean {
  return setting === "allow" || (setting === "test_only" && !livemode);
}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) {
    return false;
  }
  return ipaddr.process(address).range() === "unicast";
}

function assertPublic(hostname: string, address: string): void {
  if (!isPublicAddress(address)) {
    throw new BlockedTargetError(`${hostname} resolves to ${address}, which is not a public address`);
  }
}

/** The host of a URL as a resolver takes it (IPv6 literals lose their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Resolves `hostname` and refuses it unless every address is public. */
export async function assertPublicHost(hostname: string): Promise<void> {
  if (isIP(hostname) !== 0) {
    assertPublic(hostname, hostname);
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, found) => (error ? reject(error) : resolve(found))),
  );
  for (const { address } of addresses) {
    assertPublic(hostname, address);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses non-public answers. Node calls it for host names only;
 * literal addresses are checked by `assertPublicHost` before the request.
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    const blocked = addresses.find(({ address }) => !isPublicAddress(address));
    if (blocked !== undefined) {
      callback(new BlockedTargetError(`${hostname} resolves to ${blocked.address}, which is not a public address`), []);
      return;
    }
    const [first] = addresses;
    if (options.all === true || first === undefined) {
      callback(null, addresses);
    } else {
      callback(null, first.address, first.family);
    }
  });
}
