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

/** Every source file under a folder of the app, as repository paths with what each imports. */
function appImports(folder: string): { file: string; imports: { target: string; typeOnly: boolean }[] }[] {
  return sourceFiles(path.join(ROOT, 'app', folder)).map((full) => {
    const text = readFileSync(full, 'utf8');
    const imports = [...text.matchAll(IMPORT_STATEMENT)].flatMap(([, typeKeyword, names, specifier]) => {
      const [target] = importsOf(full, `from '${specifier}'`);
      // `import type {...}` or every name marked `type`: nothing of the module runs in the page.
      const everyNameAType = names?.split(',').every((name) => !name.trim() || /^type\s/.test(name.trim()));
      return target ? [{ target, typeOnly: typeKeyword !== undefined || everyNameAType === true }] : [];
    });
    return { file: path.relative(ROOT, full).split(path.sep).join('/'), imports };
  });
}

// `import [type] { names } from '...'` and `import [type] Name from '...'` (re-exports are not imports).
const IMPORT_STATEMENT = /\bimport\s+(type\s+)?(?:\{([^}]*)\}|[\w*\s]+)\s+from\s*['"]([^'"]+)['"]/g;

/**
 * What a dashboard page may import from lib/ besides types: its entry layer, the API's schemas (the
 * same query and wire shapes), and who may do what (role predicates, no data).
 */
const DASHBOARD_PAGE_MAY_IMPORT = [
  /^lib\/dashboard\//,
  /^lib\/api\/schemas\//,
  /^lib\/auth\/(principal|permissions)$/,
];

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

  it('no file under lib/ imports components/ (the dashboard sits above lib, never below it)', () => {
    // What the dashboard and lib share (formatters the PDF and the pages both use) lives in lib.
    const violations = libImports().flatMap(({ file, imports }) =>
      imports
        .filter((target) => target === 'components' || target.startsWith('components/'))
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

  it("route files reach a domain only through its service.ts, the domain's one entry for routes", () => {
    const routes = appImports('api');
    // The walk is only as good as what it reads: the routes are seen reaching a service.
    expect(routes.some(({ imports }) => imports.some(({ target }) => target === 'lib/sites/service'))).toBe(
      true,
    );
    const violations = routes.flatMap(({ file, imports }) =>
      imports
        .filter(({ target }) => {
          const domain = domainOf(target);
          return domain !== undefined && !ENTRY_LAYERS.includes(domain) && target !== `lib/${domain}/service`;
        })
        .map(({ target }) => `${file} imports ${target}`),
    );
    expect(violations).toEqual([]);
  });

  it('dashboard pages call domain services only through lib/dashboard', () => {
    const pages = appImports('(dashboard)');
    // The walk is only as good as what it reads: the pages are seen reaching lib/dashboard.
    expect(
      pages.some(({ imports }) => imports.some(({ target }) => target.startsWith('lib/dashboard/'))),
    ).toBe(true);
    const violations = pages.flatMap(({ file, imports }) =>
      imports
        .filter(({ target, typeOnly }) => !typeOnly && domainOf(target) !== undefined)
        .filter(({ target }) => !DASHBOARD_PAGE_MAY_IMPORT.some((allowed) => allowed.test(target)))
        .map(({ target }) => `${file} imports ${target}`),
    );
    expect(violations).toEqual([]);
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

describe('types where casts were', () => {
  it('no lib/ file casts through unknown (`as unknown as`): a value that needs it has the wrong type', () => {
    const casts = sourceFiles(LIB).flatMap((full) =>
      readFileSync(full, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\bas unknown as\b/.test(line) ? [`${path.relative(ROOT, full)}:${i + 1}`] : [],
        ),
    );
    expect(casts).toEqual([]);
  });
});

/*
 * JSON lives in jsonb columns, typed with `$type<>()`, never in text: a text column holding JSON
 * needs a decoder in every reader. The spec's JSON-encoded strings are written by the resource
 * mappers, which no table stores.
 */

/** The text columns of the drizzle schema, by their SQL name. */
function textColumns(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(LIB, 'db', 'schema'))) {
    for (const [, name] of readFileSync(file, 'utf8').matchAll(/\btext\(\s*'([a-z0-9_]+)'/g))
      if (name) names.add(name);
  }
  return names;
}

/**
 * Where `text` may write a JSON.stringify'd value into one of `columns`, as far as a static reading
 * tells: a property or assignment of that name set to JSON.stringify(...) (drizzle's insert, update
 * and row objects), or `column = ${JSON.stringify(...)}` in SQL without a jsonb cast.
 */
function jsonWrittenToText(text: string, columns: Set<string>): string[] {
  const found: string[] = [];
  // Not a declaration (`const text = JSON.stringify(...)` names a variable, not a column).
  const written = /(?<!\b(?:const|let|var)\s+)\b([a-z0-9_]+)\s*(?::|=)\s*(?:\$\{\s*)?JSON\.stringify\(/g;
  for (const match of text.matchAll(written)) {
    const column = match[1] as string;
    if (!columns.has(column)) continue;
    const after = text.slice(match.index + match[0].length);
    // A value cast to jsonb in SQL is stored as JSON, not as text.
    const closing = after.match(/^[^`]*?\)\s*\}(\s*::\s*jsonb)?/);
    if (closing?.[1]) continue;
    found.push(column);
  }
  return found;
}

describe('typed storage', () => {
  it("no lib/ file writes a JSON.stringify'd value into a text column", () => {
    const columns = textColumns();
    // The walk is only as good as the schema read: these are text columns.
    expect(columns).toContain('detail');
    expect(columns).toContain('link_text');
    const violations = sourceFiles(LIB)
      .filter((file) => !file.includes(`${path.sep}db${path.sep}schema${path.sep}`))
      .flatMap((file) =>
        jsonWrittenToText(readFileSync(file, 'utf8'), columns).map(
          (column) => `${path.relative(ROOT, file)} writes JSON into text column ${column}`,
        ),
      );
    expect(violations).toEqual([]);
  });

  it('sees JSON written to a text column in a row object, an assignment and SQL', () => {
    const columns = new Set(['detail', 'note']);
    // Source text with template placeholders in it, written without a template literal.
    const $ = (expression: string) => `$\u007b${expression}}`;
    expect(jsonWrittenToText('db.insert(t).values({ detail: JSON.stringify(list) })', columns)).toEqual([
      'detail',
    ]);
    expect(jsonWrittenToText('after.note = JSON.stringify(input.notes);', columns)).toEqual(['note']);
    expect(
      jsonWrittenToText(`sql\`update t set detail = ${$('JSON.stringify(v)')} where id = 1\``, columns),
    ).toEqual(['detail']);
    // jsonb columns, a cast to jsonb and a string that merely contains JSON are fine.
    expect(jsonWrittenToText('({ settings: JSON.stringify(s) })', columns)).toEqual([]);
    expect(
      jsonWrittenToText(`sql\`update t set detail = ${$('JSON.stringify(v)')}::jsonb\``, columns),
    ).toEqual([]);
    expect(jsonWrittenToText(`({ detail: \`invalid URL: ${$('JSON.stringify(url)')}\` })`, columns)).toEqual(
      [],
    );
    expect(jsonWrittenToText('const note = JSON.stringify(parts);', columns)).toEqual([]);
  });
});

/*
 * A test file's name starts with the folder it tests, as the code is laid out: a lib/ folder or file
 * (notify-settings, db-pglite-thread, config), a components/ folder (ui-time-axis), an app/ area
 * (status-public) or a jobs/ part (runtime-jobs); the few that test across folders say so in their
 * own prefix below. A name that drifts (notifications-settings beside notify-*) fails here.
 */
const ACROSS_FOLDERS = ['architecture', 'hosted', 'matrix', 'openapi', 'query', 'readme'];

describe('test file names', () => {
  it('start with the folder they test', () => {
    const entries = (dir: string) =>
      readdirSync(path.join(ROOT, dir), { withFileTypes: true }).map((e) =>
        e.name.replace(/\.(ts|tsx)$/, '').replace(/^\((.*)\)$/, '$1'),
      );
    const folders = new Set([
      ...entries('lib'),
      ...entries('components'),
      ...entries('app'),
      ...entries('app/api'),
      ...entries('jobs'),
      ...ACROSS_FOLDERS,
    ]);
    const drifted = ['tests/unit', 'tests/integration'].flatMap((dir) =>
      readdirSync(path.join(ROOT, dir))
        .filter((name) => name.endsWith('.test.ts') && !folders.has(name.split(/[-.]/)[0]!))
        .map((name) => `${dir}/${name}`),
    );
    expect(drifted).toEqual([]);
  });
});
