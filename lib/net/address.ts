import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { config } from '@/lib/config';
import { BlockedAddressError } from './errors';
import { privatelyAllowed } from './private-networks';

/**
 * True only for globally routable unicast addresses. Loopback, private, link-local (cloud
 * metadata lives at 169.254.169.254), carrier-grade NAT, multicast, reserved, and the IPv6
 * ranges that embed an IPv4 address (6to4, NAT64, Teredo) are all refused. An IPv4-mapped IPv6
 * address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * Whether a connection made for `hostname` may go to `address`: a public one, or one the operator
 * let through with PRIVATE_NETWORKS (lib/net/private-networks.ts). The rule every connector applies.
 */
export function isReachableAddress(address: string, hostname = address): boolean {
  return isPublicAddress(address) || privatelyAllowed(config().privateNetworks, address, hostname);
}

/**
 * The addresses of `hostname`'s DNS answer a connection may use (`isReachableAddress`). Throws
 * `BlockedAddressError` (naming the first address) when there are none. The one rule every
 * connector applies, the undici dispatchers and the browser's proxy alike.
 */
export function reachableAddressesOf(hostname: string, addresses: readonly LookupAddress[]): LookupAddress[] {
  const allowed = addresses.filter((a) => isReachableAddress(a.address, hostname));
  if (allowed.length === 0) throw new BlockedAddressError(hostname, addresses[0]?.address ?? hostname);
  return allowed;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A drop-in for `dns.lookup` as node:net calls it, answering only with addresses that pass
 * `isReachableAddress`. Because the socket connects to exactly the address this returns, there is no
 * window between checking and connecting for a rebinding DNS server to exploit.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, []);
      return;
    }
    let allowed: LookupAddress[];
    try {
      allowed = reachableAddressesOf(hostname, addresses);
    } catch (blocked) {
      callback(blocked as NodeJS.ErrnoException, []);
      return;
    }
    if (options.all) {
      callback(null, allowed);
    } else {
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    }
  });
}
