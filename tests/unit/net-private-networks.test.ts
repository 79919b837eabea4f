import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, resetConfig } from '@/lib/config';
import {
  closeDispatchers,
  httpRequest,
  NetError,
  parsePrivateNetworks,
  privatelyAllowed,
  unreachableTargetReason,
} from '@/lib/net';
import { guardedLookup } from '@/lib/net/address';
import { startServer, type TestServer } from '../support/http-server';

/**
 * PRIVATE_NETWORKS (issue 24 item 2): the ranges and names a self-hosted server may reach besides
 * public addresses, with link-local metadata endpoints only when named exactly.
 */

describe('parsePrivateNetworks', () => {
  it('reads ranges, addresses, host names and *.domain patterns', () => {
    const networks = parsePrivateNetworks(
      ' 10.0.0.0/8, 192.168.1.20 ,fd12:3456::/48, Intranet.Corp., *.staging ',
    );
    expect(networks.entries).toEqual([
      '10.0.0.0/8',
      '192.168.1.20',
      'fd12:3456::/48',
      'intranet.corp',
      '*.staging',
    ]);
    expect(privatelyAllowed(networks, '10.200.3.4')).toBe(true);
    expect(privatelyAllowed(networks, '192.168.1.20')).toBe(true);
    expect(privatelyAllowed(networks, '192.168.1.21')).toBe(false);
    expect(privatelyAllowed(networks, 'fd12:3456::9')).toBe(true);
    expect(privatelyAllowed(networks, 'fd12:3457::9')).toBe(false);
    // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
    expect(privatelyAllowed(networks, '::ffff:10.1.1.1')).toBe(true);
    // Names let through whatever private address they resolve to.
    expect(privatelyAllowed(networks, '172.16.0.9', 'intranet.corp')).toBe(true);
    expect(privatelyAllowed(networks, '172.16.0.9', 'app.staging')).toBe(true);
    expect(privatelyAllowed(networks, '172.16.0.9', 'other.corp')).toBe(false);
  });

  it('is empty when unset, and lets nothing through', () => {
    for (const value of [undefined, '', ' , ']) {
      const networks = parsePrivateNetworks(value);
      expect(networks.entries).toEqual([]);
      expect(privatelyAllowed(networks, '10.0.0.1')).toBe(false);
    }
  });

  it('refuses entries it cannot read, naming each and the setting', () => {
    expect(() => parsePrivateNetworks('10.0.0.0/33, intranet..corp, http://x/')).toThrow(
      /^PRIVATE_NETWORKS: 10\.0\.0\.0\/33, intranet\.\.corp, http:\/\/x\/ is not a CIDR range/,
    );
    expect(() => parseConfig({ PRIVATE_NETWORKS: '300.1.1.1' })).toThrow(
      /^invalid environment: PRIVATE_NETWORKS: 300\.1\.1\.1 is not/,
    );
  });

  it('opens a link-local metadata address only when it is named exactly', () => {
    const wide = parsePrivateNetworks('169.254.0.0/16, fd00:ec2::/32, metadata.internal');
    expect(privatelyAllowed(wide, '169.254.10.10')).toBe(false);
    expect(privatelyAllowed(wide, '169.254.169.254')).toBe(false);
    expect(privatelyAllowed(wide, 'fd00:ec2::254')).toBe(false);
    expect(privatelyAllowed(wide, '169.254.169.254', 'metadata.internal')).toBe(false);
    // The rest of a named range is open.
    expect(privatelyAllowed(wide, 'fd00:ec2::1')).toBe(true);
    const exact = parsePrivateNetworks('169.254.169.254, fd00:ec2::254/128');
    expect(privatelyAllowed(exact, '169.254.169.254')).toBe(true);
    expect(privatelyAllowed(exact, 'fd00:ec2::254')).toBe(true);
    expect(privatelyAllowed(exact, '169.254.169.253')).toBe(false);
  });
});

describe('with PRIVATE_NETWORKS set, as in production', () => {
  let listed: TestServer;
  let unlisted: TestServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    listed = await startServer('127.0.0.2', { '/': { body: 'staging' } });
    unlisted = await startServer('127.0.0.3', { '/': { body: 'secret' } });
    // The tests' ALLOW_PRIVATE_NETWORK would let everything through: this is the production rule.
    process.env.ALLOW_PRIVATE_NETWORK = '';
    process.env.PRIVATE_NETWORKS = '127.0.0.2/32, intranet.localhost';
    resetConfig();
  });
  afterEach(() => closeDispatchers());
  afterAll(async () => {
    process.env = saved;
    resetConfig();
    await Promise.all([listed.close(), unlisted.close()]);
  });

  it('reaches a listed range and refuses the rest, naming the setting', async () => {
    const ok = await httpRequest({ url: `${listed.url('/')}` });
    expect(ok.status).toBe(200);
    const refused = await httpRequest({ url: unlisted.url('/') }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(NetError);
    expect((refused as NetError).code).toBe('blocked');
    expect((refused as NetError).detail).toContain('PRIVATE_NETWORKS');
    expect(unlisted.requests).toHaveLength(0);
  });

  it('lets a listed host name through to whatever private address it resolves to, in the connect lookup', async () => {
    const lookup = (hostname: string) =>
      new Promise<{ error: Error | null; addresses: unknown }>((resolve) =>
        guardedLookup(hostname, { all: true }, (error, addresses) => resolve({ error, addresses })),
      );
    // `localhost` is in /etc/hosts: no DNS server is asked.
    process.env.PRIVATE_NETWORKS = '127.0.0.2/32, localhost';
    resetConfig();
    const named = await lookup('localhost');
    expect(named.error).toBeNull();
    expect((named.addresses as { address: string }[]).length).toBeGreaterThan(0);
    process.env.PRIVATE_NETWORKS = '127.0.0.2/32';
    resetConfig();
    const unnamed = await lookup('localhost');
    expect(unnamed.error?.message).toMatch(/refused to connect to localhost .*PRIVATE_NETWORKS/);
    process.env.PRIVATE_NETWORKS = '127.0.0.2/32, intranet.localhost';
    resetConfig();
  });

  it('lets the save-time check accept listed targets and name the setting for the others', () => {
    const check = (url: string) => unreachableTargetReason(new URL(url));
    expect(check(listed.url('/'))).toBeNull();
    expect(check('http://intranet.localhost/')).toBeNull();
    expect(check(unlisted.url('/'))).toMatch(/loopback address \(127\.0\.0\.3\).*PRIVATE_NETWORKS/);
    expect(check('http://10.0.0.5/')).toMatch(/PRIVATE_NETWORKS/);
    expect(check('http://printer.local/')).toMatch(/PRIVATE_NETWORKS/);
    expect(check('http://169.254.169.254/latest/meta-data/')).toMatch(/link-local.*PRIVATE_NETWORKS/);
  });
});
