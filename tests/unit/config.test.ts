import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';

describe('parseConfig', () => {
  it('applies the embedded defaults', () => {
    const c = parseConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.appUrl).toBe('http://localhost:3000');
    expect(c.INCLUDED_SITES).toBe(3);
    expect(c.embeddedRunner).toBe(true);
    expect(c.inngestHosted).toBe(false);
  });

  it('trusts every loopback spelling of the default origin, and only APP_URL once it is set', () => {
    expect(parseConfig({ PORT: '4000' }).trustedOrigins).toEqual([
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'http://[::1]:4000',
    ]);
    expect(parseConfig({ APP_URL: 'https://sitewatch.example/' }).trustedOrigins).toEqual([
      'https://sitewatch.example',
    ]);
  });

  it('switches to hosted Inngest when keys are present', () => {
    const c = parseConfig({ INNGEST_EVENT_KEY: 'k', INNGEST_SIGNING_KEY: 's' });
    expect(c.inngestHosted).toBe(true);
    expect(c.embeddedRunner).toBe(false);
  });

  it('refuses private-network access in production', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', ALLOW_PRIVATE_NETWORK: 'true' })).toThrow(
      /ALLOW_PRIVATE_NETWORK/,
    );
  });

  it('requires BETTER_AUTH_SECRET with a real database in production, and a long one', () => {
    const hosted = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db.example/sitewatch' };
    expect(() => parseConfig(hosted)).toThrow(/BETTER_AUTH_SECRET .* is required with DATABASE_URL/);
    expect(() => parseConfig({ ...hosted, BETTER_AUTH_SECRET: 'too-short' })).toThrow(/BETTER_AUTH_SECRET/);
    expect(parseConfig({ ...hosted, BETTER_AUTH_SECRET: 'k'.repeat(32) }).BETTER_AUTH_SECRET).toBe(
      'k'.repeat(32),
    );
  });

  it('reads TRUSTED_PROXY as direct, Vercel, or a list of proxy addresses and ranges', () => {
    expect(parseConfig({}).trustedProxy).toEqual({ kind: 'none' });
    expect(parseConfig({ TRUSTED_PROXY: '' }).trustedProxy).toEqual({ kind: 'none' });
    expect(parseConfig({ TRUSTED_PROXY: 'vercel' }).trustedProxy).toEqual({ kind: 'vercel' });
    expect(parseConfig({ TRUSTED_PROXY: '10.0.0.5, 172.16.0.0/12,::1' }).trustedProxy).toEqual({
      kind: 'addresses',
      ranges: ['10.0.0.5', '172.16.0.0/12', '::1'],
    });
    for (const bad of ['cloudflare', '10.1', '10.0.0.0/33', '10.0.0.1/8/1', '2001:db8::/129']) {
      expect(() => parseConfig({ TRUSTED_PROXY: bad }), bad).toThrow(/TRUSTED_PROXY/);
    }
  });

  it('names the bad variable', () => {
    expect(() => parseConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });
});
