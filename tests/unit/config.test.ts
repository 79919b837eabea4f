import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';
import { regionEndpoint } from '@/lib/uptime/probers';

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

  it('reads NEON_WS_PROXY as host:port/path, on loopback only in production', () => {
    expect(parseConfig({}).NEON_WS_PROXY).toBeUndefined();
    expect(parseConfig({ NEON_WS_PROXY: ' ' }).NEON_WS_PROXY).toBeUndefined();
    expect(parseConfig({ NEON_WS_PROXY: 'db.internal:5433/v1' }).NEON_WS_PROXY).toBe('db.internal:5433/v1');
    for (const bad of [
      'ws://127.0.0.1:5433/v1',
      '127.0.0.1:5433/v1?address=x:1',
      'proxy-without-port',
      ':5433',
    ]) {
      expect(() => parseConfig({ NEON_WS_PROXY: bad }), bad).toThrow(/NEON_WS_PROXY/);
    }
    const production = { NODE_ENV: 'production', BETTER_AUTH_SECRET: 'k'.repeat(32) };
    for (const loopback of ['127.0.0.1:5433/v1', 'localhost:5433/v1', '[::1]:5433/v1']) {
      expect(parseConfig({ ...production, NEON_WS_PROXY: loopback }).NEON_WS_PROXY, loopback).toBe(loopback);
    }
    expect(() => parseConfig({ ...production, NEON_WS_PROXY: 'db.internal:5433/v1' })).toThrow(
      /NEON_WS_PROXY must be on loopback/,
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

/** What a Vercel deployment with its integrations (Neon, Inngest) and an auth secret sets. */
const vercelPreview = {
  NODE_ENV: 'production',
  VERCEL: '1',
  VERCEL_ENV: 'preview',
  VERCEL_URL: 'sitewatch-k3j2h1-team.vercel.app',
  VERCEL_BRANCH_URL: 'sitewatch-git-feature-team.vercel.app',
  VERCEL_PROJECT_PRODUCTION_URL: 'sitewatch.example',
  DATABASE_URL: 'postgres://user:pw@ep-cool-name-pooler.eu-central-1.aws.neon.tech/neondb',
  BETTER_AUTH_SECRET: 's'.repeat(32),
  INNGEST_SIGNING_KEY: 'signkey-branch-0123',
  INNGEST_EVENT_KEY: 'event-key-0123',
};
const vercelProduction = {
  ...vercelPreview,
  VERCEL_ENV: 'production',
  VERCEL_BRANCH_URL: 'sitewatch-git-main-team.vercel.app',
};

describe('parseConfig on Vercel (VERCEL=1)', () => {
  it('accepts a deployment with its database, auth secret and Inngest keys, and never runs the embedded runner', () => {
    const c = parseConfig(vercelPreview);
    expect(c.embeddedRunner).toBe(false);
    expect(c.inngestHosted).toBe(true);
    // Even where a local .env asked for it, the runner is refused rather than started in a function.
    expect(() => parseConfig({ ...vercelPreview, EMBEDDED_RUNNER: 'true' })).toThrow(
      /invalid environment on Vercel: EMBEDDED_RUNNER must be unset or false/,
    );
    expect(parseConfig({ ...vercelPreview, EMBEDDED_RUNNER: 'false' }).embeddedRunner).toBe(false);
  });

  it('refuses to start without each required variable, naming it', () => {
    for (const name of ['DATABASE_URL', 'BETTER_AUTH_SECRET', 'INNGEST_SIGNING_KEY', 'INNGEST_EVENT_KEY']) {
      const env: Record<string, string | undefined> = { ...vercelPreview, [name]: undefined };
      expect(() => parseConfig(env), name).toThrow(new RegExp(`on Vercel: ${name} is required`));
      // An empty value, as a blank entry in Vercel's settings gives, is as missing as none.
      expect(() => parseConfig({ ...vercelPreview, [name]: '' }), name).toThrow(new RegExp(name));
    }
  });

  it('names every missing variable at once, so one redeploy fixes them all', () => {
    const error = (() => {
      try {
        parseConfig({ VERCEL: '1', VERCEL_ENV: 'preview', VERCEL_URL: vercelPreview.VERCEL_URL });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    for (const name of ['DATABASE_URL', 'BETTER_AUTH_SECRET', 'INNGEST_SIGNING_KEY', 'INNGEST_EVENT_KEY']) {
      expect(error).toContain(`${name} is required`);
    }
  });

  it('refuses Inngest dev mode, which would accept unsigned calls to /api/inngest', () => {
    expect(() => parseConfig({ ...vercelPreview, INNGEST_DEV: '1' })).toThrow(/INNGEST_DEV must be unset/);
    expect(parseConfig({ ...vercelPreview, INNGEST_DEV: '0' }).inngestHosted).toBe(true);
  });

  it('applies only on Vercel: the same variables missing elsewhere keep the embedded defaults', () => {
    const c = parseConfig({ NODE_ENV: 'production', VERCEL_URL: vercelPreview.VERCEL_URL });
    expect(c.embeddedRunner).toBe(true);
    expect(c.appUrl).toBe('http://localhost:3000');
    expect(c.trustedProxy).toEqual({ kind: 'none' });
  });

  it("follows the project's production domain in production, and trusts this deployment's own URLs", () => {
    const c = parseConfig(vercelProduction);
    expect(c.appUrl).toBe('https://sitewatch.example');
    expect(c.trustedOrigins).toEqual([
      'https://sitewatch.example',
      'https://sitewatch-git-main-team.vercel.app',
      'https://sitewatch-k3j2h1-team.vercel.app',
    ]);
    // Without a production domain (a project's first deploy), the deployment's own URL.
    expect(parseConfig({ ...vercelProduction, VERCEL_PROJECT_PRODUCTION_URL: undefined }).appUrl).toBe(
      'https://sitewatch-k3j2h1-team.vercel.app',
    );
  });

  it("follows the branch URL on a preview (else the deployment's), and never trusts production's domain", () => {
    const c = parseConfig(vercelPreview);
    expect(c.appUrl).toBe('https://sitewatch-git-feature-team.vercel.app');
    expect(c.trustedOrigins).toEqual([
      'https://sitewatch-git-feature-team.vercel.app',
      'https://sitewatch-k3j2h1-team.vercel.app',
    ]);
    expect(parseConfig({ ...vercelPreview, VERCEL_BRANCH_URL: undefined }).appUrl).toBe(
      'https://sitewatch-k3j2h1-team.vercel.app',
    );
    expect(parseConfig({ ...vercelPreview, VERCEL_ENV: 'development' }).appUrl).toBe(
      'https://sitewatch-git-feature-team.vercel.app',
    );
  });

  it("keeps an APP_URL that is set, trusting the deployment's own URLs beside it", () => {
    const c = parseConfig({ ...vercelProduction, APP_URL: 'https://status.agency.example/' });
    expect(c.appUrl).toBe('https://status.agency.example');
    expect(c.trustedOrigins[0]).toBe('https://status.agency.example');
    expect(c.trustedOrigins).toContain('https://sitewatch-k3j2h1-team.vercel.app');
  });

  it('refuses a deployment with no URL to follow, or a URL variable that is not a host name', () => {
    const bare = { ...vercelPreview, VERCEL_URL: undefined, VERCEL_BRANCH_URL: undefined };
    expect(() => parseConfig(bare)).toThrow(/APP_URL is required when Vercel sets none of/);
    expect(parseConfig({ ...bare, APP_URL: 'https://preview.example' }).appUrl).toBe(
      'https://preview.example',
    );
    expect(() => parseConfig({ ...vercelPreview, VERCEL_URL: 'not a host/path' })).toThrow(
      /VERCEL_URL is not a host name/,
    );
  });

  it('calls the probe regions at the URL the app follows, unless UPTIME_REGIONS_URL is set', () => {
    expect(regionEndpoint('eu', parseConfig(vercelPreview))).toBe(
      'https://sitewatch-git-feature-team.vercel.app/api/uptime/regions/eu',
    );
    expect(regionEndpoint('eu', parseConfig(vercelProduction))).toBe(
      'https://sitewatch.example/api/uptime/regions/eu',
    );
    const pinned = { ...vercelProduction, UPTIME_REGIONS_URL: 'https://probes.example/' };
    expect(regionEndpoint('eu', parseConfig(pinned))).toBe('https://probes.example/api/uptime/regions/eu');
  });

  it("reads the client's address from Vercel's header unless TRUSTED_PROXY says otherwise", () => {
    expect(parseConfig(vercelPreview).trustedProxy).toEqual({ kind: 'vercel' });
    expect(parseConfig({ ...vercelPreview, TRUSTED_PROXY: '' }).trustedProxy).toEqual({ kind: 'vercel' });
    expect(parseConfig({ ...vercelPreview, TRUSTED_PROXY: '10.0.0.1' }).trustedProxy).toEqual({
      kind: 'addresses',
      ranges: ['10.0.0.1'],
    });
  });
});
