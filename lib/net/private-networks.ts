import ipaddr from 'ipaddr.js';

/**
 * The private places an operator lets a self-hosted server reach (`PRIVATE_NETWORKS`): staging
 * servers, an intranet, a site on the same machine. A comma-separated list of
 *
 * - CIDR ranges or single addresses (`10.0.0.0/8`, `192.168.1.20`, `fd12:3456::/48`), and
 * - host names (`intranet.corp`, `staging.local`), or every name under a domain (`*.corp`).
 *
 * Everything outside the list stays public-only. Link-local metadata endpoints (cloud instance
 * credentials live at 169.254.169.254 and fd00:ec2::254) are never let through by a range or a
 * name, only by their exact address: a `169.254.0.0/16` written for a link-local device must not
 * hand out the host's cloud credentials by accident.
 */
export interface PrivateNetworks {
  /** The list as the operator wrote it, for messages. */
  readonly entries: readonly string[];
  readonly ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** Addresses named exactly (normalized), which alone open a metadata address. */
  readonly exact: ReadonlySet<string>;
  readonly hosts: ReadonlySet<string>;
  /** Domains whose every subdomain is named (`*.corp` -> `corp`). */
  readonly domains: readonly string[];
}

export const NO_PRIVATE_NETWORKS: PrivateNetworks = {
  entries: [],
  ranges: [],
  exact: new Set(),
  hosts: new Set(),
  domains: [],
};

/** The setting's name, for every refusal that an operator could lift. */
export const PRIVATE_NETWORKS_SETTING = 'PRIVATE_NETWORKS';

const METADATA_RANGES = [ipaddr.parseCIDR('169.254.0.0/16'), ipaddr.parseCIDR('fd00:ec2::254/128')];
const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
/** A name whose last label is numeric is an IPv4 address to a URL parser (300.1.1.1 is no host name). */
const isHostName = (name: string) => HOST_NAME.test(name) && !/(^|\.)\d+$/.test(name);

/** Parses the setting; throws naming every entry it cannot read. */
export function parsePrivateNetworks(value: string | undefined): PrivateNetworks {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
  if (entries.length === 0) return NO_PRIVATE_NETWORKS;
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const exact = new Set<string>();
  const hosts = new Set<string>();
  const domains: string[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    const literal = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
    if (ipaddr.isValid(literal)) {
      const address = ipaddr.process(literal);
      exact.add(address.toNormalizedString());
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (entry.includes('/')) {
      try {
        const [address, bits] = ipaddr.parseCIDR(entry);
        const full = address.kind() === 'ipv4' ? 32 : 128;
        if (bits === full) exact.add(address.toNormalizedString());
        ranges.push([address, bits]);
      } catch {
        invalid.push(entry);
      }
    } else if (entry.startsWith('*.') && isHostName(entry.slice(2))) {
      domains.push(entry.slice(2));
    } else if (isHostName(entry)) {
      hosts.add(entry);
    } else {
      invalid.push(entry);
    }
  }
  if (invalid.length > 0) {
    throw new Error(
      `${PRIVATE_NETWORKS_SETTING}: ${invalid.join(', ')} is not a CIDR range, an IP address or a host name (such as 10.0.0.0/8, 192.168.1.20, intranet.corp or *.corp)`,
    );
  }
  return { entries, ranges, exact, hosts, domains };
}

function inRange(address: ipaddr.IPv4 | ipaddr.IPv6, [base, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]) {
  return address.kind() === base.kind() && address.match(base, bits);
}

/** True for the link-local metadata endpoints, which only an exact entry opens. */
function isMetadataAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return METADATA_RANGES.some((range) => inRange(address, range));
}

/** The host (as written in a URL or a connect call) is one the operator named. */
export function isNamedHost(networks: PrivateNetworks, hostname: string): boolean {
  const host = hostname.replace(/\.$/, '').toLowerCase();
  return networks.hosts.has(host) || networks.domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/**
 * Whether a non-public `address` may be reached for `hostname` (the name that resolved to it, or
 * the literal itself): inside a named range, or answered for a named host; a metadata address only
 * when named exactly.
 */
export function privatelyAllowed(networks: PrivateNetworks, address: string, hostname = address): boolean {
  if (networks.entries.length === 0 || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (isMetadataAddress(parsed)) return networks.exact.has(parsed.toNormalizedString());
  return isNamedHost(networks, hostname) || networks.ranges.some((range) => inRange(parsed, range));
}
