import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The layers, one way: app -> lib/api (routes) and lib/dashboard (pages) -> lib/<domain> -> lib/db,
 * lib/net. The domain knows nothing of HTTP or of the job runner, and domain folders do not import
 * each other in circles. Read from the source files, so a new import that breaks either rule fails
 * here before review.
 */

const ROOT = path.resolve(__dirname, '../..');
const LIB = path.join(ROOT, 'lib');
/** The entry layers: they may import lib/api and jobs; nothing else under lib/ may. */
const ENTRY_LAYERS = ['api', 'dashboard'];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

// `from '...'` (import, import type, export ... from), bare `import '...'`, and `import('...')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** What a file imports, as repository paths ('lib/api/errors', 'jobs/runtime'); packages omitted. */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (!specifier) continue;
    if (specifier.startsWith('@/')) found.push(specifier.slice(2));
    else if (specifier.startsWith('.')) {
      found.push(
        path
          .relative(ROOT, path.resolve(path.dirname(file), specifier))
          .split(path.sep)
          .join('/'),
      );
    }
  }
  return found;
}

/** The folder under lib/ a repository path belongs to (undefined for lib/*.ts files and outside lib/). */
function domainOf(repoPath: string): string | undefined {
  const parts = repoPath.split('/');
  return parts[0] === 'lib' && parts.length > 2 ? parts[1] : undefined;
}

function libImports(): { file: string; domain: string | undefined; imports: string[] }[] {
  return sourceFiles(LIB).map((full) => {
    const file = path.relative(ROOT, full).split(path.sep).join('/');
    return { file, domain: domainOf(file), imports: importsOf(full, readFileSync(full, 'utf8')) };
  });
}

/**
 * Every elementary cycle, as its folders in order. Each cycle is walked from its smallest name only
 * (the walk never enters a name before its start), so each is listed once.
 */
function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const walk = (start: string, node: string, trail: string[]) => {
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (next === start) cycles.push(trail);
      else if (next > start && !trail.includes(next)) walk(start, next, [...trail, next]);
    }
  };
  for (const node of [...graph.keys()].sort()) walk(node, node, [node]);
  return cycles;
}

describe('architecture', () => {
  it('no file under lib/ outside lib/api and lib/dashboard imports lib/api or jobs', () => {
    const violations = libImports()
      .filter(({ domain }) => !ENTRY_LAYERS.includes(domain ?? ''))
      .flatMap(({ file, imports }) =>
        imports
          .filter(
            (target) => target === 'lib/api' || target.startsWith('lib/api/') || /^jobs(\/|$)/.test(target),
          )
          .map((target) => `${file} imports ${target}`),
      );
    expect(violations).toEqual([]);
  });

  it('the domain folders under lib/ import each other without cycles', () => {
    const graph = new Map<string, Set<string>>();
    for (const { domain, imports } of libImports()) {
      if (!domain) continue;
      const edges = graph.get(domain) ?? new Set<string>();
      graph.set(domain, edges);
      for (const target of imports.map(domainOf)) if (target && target !== domain) edges.add(target);
    }
    // The walk is only as good as the graph: the API layer is seen reaching its domains.
    expect(graph.get('api')).toContain('sites');
    expect(findCycles(graph).map((cycle) => [...cycle, cycle[0]].join(' -> '))).toEqual([]);
  });

  it('finds each cycle once, and none in a graph that has none', () => {
    const graph = (edges: Record<string, string[]>) =>
      new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));
    expect(findCycles(graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: ['b'] }))).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'd'],
    ]);
    expect(findCycles(graph({ crawl: ['sites'], sites: ['crawl'] }))).toEqual([['crawl', 'sites']]);
    expect(findCycles(graph({ api: ['crawl', 'sites'], crawl: ['sites', 'db'], sites: ['db'] }))).toEqual([]);
  });

  it('reads every form of import, relative ones resolved', () => {
    const file = path.join(LIB, 'crawl', 'run.ts');
    const text = [
      "import { a } from '@/lib/api/errors';",
      "import type { B } from '../../jobs/runtime';",
      "export { c } from './events';",
      "const d = await import('@/lib/usage/allowance');",
      "import 'zod';",
    ].join('\n');
    expect(importsOf(file, text)).toEqual([
      'lib/api/errors',
      'jobs/runtime',
      'lib/crawl/events',
      'lib/usage/allowance',
    ]);
  });
});
