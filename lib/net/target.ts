import ipaddr from 'ipaddr.js';
import { config } from '@/lib/config';
import { isReachableAddress } from './address';
import { isNamedHost, PRIVATE_NETWORKS_SETTING } from './private-networks';

/**
 * Names that can only ever mean a machine on the operator's own network: `localhost` and its
 * subdomains (RFC 6761), mDNS's `.local` (RFC 6762), `.internal` (reserved for private use by
 * ICANN in 2024) and `.home.arpa` (RFC 8375).
 */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];

/** Said with every refusal the operator of a self-hosted server could lift. */
const OPERATOR_HINT = ` (the operator of a self-hosted server can allow private ranges and host names with ${PRIVATE_NETWORKS_SETTING})`;

export interface TargetCheckOptions {
  /** Let loopback and private targets through. Defaults to `config().ALLOW_PRIVATE_NETWORK`. */
  allowPrivate?: boolean;
}

/**
 * The one check every URL a user configures passes when it is saved (a site's root URL, and
 * later uptime monitors and webhooks): why the service could never reach its host, or null.
 *
 * It judges the host as written. An IP literal outside public unicast space (private, loopback,
 * link-local, reserved, ...) and a name that is private by definition are refused up front, with a
 * reason the user can act on, instead of being saved and failing at every run. A public-looking
 * name that resolves to a private address is not caught here: DNS answers change, so `lib/net`
 * checks the address it actually connects to on every request.
 *
 * `url` must already be a parsed http(s) URL; the WHATWG parser has canonicalized its host, so
 * `http://2130706433/` and `http://0x7f.1/` arrive here as `127.0.0.1`.
 */
export function unreachableTargetReason(url: URL, options: TargetCheckOptions = {}): string | null {
  if (options.allowPrivate ?? config().ALLOW_PRIVATE_NETWORK) return null;
  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(literal)) {
    if (isReachableAddress(literal)) return null;
    return `must not point at a ${rangeName(literal)} address (${literal}): the service only reaches public hosts${OPERATOR_HINT}`;
  }
  // A name the operator listed may be private by definition (intranet.local) or single-label.
  if (isNamedHost(config().privateNetworks, host)) return null;
  const suffix = PRIVATE_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (suffix)
    return `must not point at a private host name (${host}): .${suffix} names only exist on local networks${OPERATOR_HINT}`;
  if (!host.includes('.')) {
    return `must name a public host with a domain, such as ${host}.example.com, not a single-label name (${host})${OPERATOR_HINT}`;
  }
  return null;
}

/** ipaddr.js's range for an address, in plain words ("private", "loopback", "link-local", ...). */
function rangeName(address: string): string {
  const range = ipaddr.process(address).range();
  const names: Record<string, string> = {
    linkLocal: 'link-local',
    uniqueLocal: 'private (unique local)',
    carrierGradeNat: 'carrier-grade NAT',
    unspecified: 'unspecified',
    rfc6145: 'translated',
    rfc6052: 'NAT64',
    '6to4': '6to4',
    teredo: 'Teredo',
  };
  return names[range] ?? range;
}
