import { describe, expect, it } from 'vitest';
import { unreachableTargetReason } from '@/lib/net';

const check = (url: string) => unreachableTargetReason(new URL(url), { allowPrivate: false });

describe('unreachableTargetReason', () => {
  it.each([
    ['http://10.1.2.3/', 'private'],
    ['http://192.168.0.10:8080/admin', 'private'],
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.9.9.9/', 'loopback'],
    // The WHATWG parser canonicalizes the other spellings of 127.0.0.1 before the check sees them.
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://192.0.2.1/', 'reserved'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[::1]/', 'loopback'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fc00::1]/', 'unique local'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[64:ff9b::7f00:1]/', 'NAT64'],
  ])('refuses the IP literal %s as %s', (url, range) => {
    const reason = check(url);
    expect(reason).toContain(range);
    expect(reason).toContain('public hosts');
  });

  it.each([
    'http://localhost/',
    'http://LOCALHOST.:3000/',
    'http://app.localhost/',
    'http://printer.local/',
    'http://metadata.google.internal/',
    'http://nas.home.arpa/',
  ])('refuses the private name %s', (url) => {
    expect(check(url)).toMatch(/private host name .* only exist on local networks/);
  });

  it.each(['http://intranet/', 'https://router:8443/'])('refuses the single-label host %s', (url) => {
    expect(check(url)).toMatch(/single-label name/);
  });

  it.each([
    'https://example.com/',
    'https://www.example.co.uk/path',
    'http://8.8.8.8/',
    'http://[2606:4700:4700::1111]/',
    'https://local.example.com/',
    'https://internal.example.org/',
    'https://localhost.example.net/',
  ])('lets the public target %s through', (url) => {
    expect(check(url)).toBeNull();
  });

  it('lets everything through when private networks are allowed (development and tests)', () => {
    expect(unreachableTargetReason(new URL('http://127.0.0.1:4000/'), { allowPrivate: true })).toBeNull();
    expect(unreachableTargetReason(new URL('http://localhost/'), { allowPrivate: true })).toBeNull();
  });
});
