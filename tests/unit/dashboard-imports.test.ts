import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .ts/.tsx file under a directory, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Each import or re-export statement naming a module under lib/, with whether it is type-only. */
function libImports(source: string): { statement: string; typeOnly: boolean }[] {
  const statements = source.matchAll(/^(?:import|export)\s[^;]*?from\s+'@\/lib\/[^']+';/gms);
  return [...statements].map(([statement]) => ({
    statement,
    typeOnly: /^(?:import|export)\s+type\s/.test(statement),
  }));
}

/**
 * A lib module the browser may run: one whose every import is type-only (and that imports nothing
 * else), so importing it pulls no server code along: no zod schemas, lib/net or database client.
 */
function isSelfContained(statement: string): boolean {
  const target = /from\s+'@\/lib\/([^']+)'/.exec(statement)?.[1];
  if (!target) return false;
  const file = ['.ts', '.tsx'].map((ext) => path.resolve('lib', target + ext)).find((f) => existsSync(f));
  if (!file) return false;
  const source = readFileSync(file, 'utf8');
  const imports = [...source.matchAll(/^import\s[^;]*?from\s+'[^']+';|^import\s+'[^']+';/gms)];
  return imports.every(([statement]) => /^import\s+type\s/.test(statement));
}

describe('dashboard components', () => {
  it('import from lib/ only as types, so no server code (zod schemas, lib/net, the database) reaches the browser', () => {
    const imports = sourceFiles(path.resolve('components')).flatMap((file) =>
      libImports(readFileSync(file, 'utf8')).map((i) => ({ ...i, file: path.relative('.', file) })),
    );
    // The resource types are read from lib/api/schemas: the scan sees those imports.
    expect(imports.some((i) => i.file === path.join('components', 'api', 'types.ts'))).toBe(true);
    // Values only from self-contained modules (pure functions that import nothing but types).
    expect(
      imports
        .filter((i) => !i.typeOnly && !isSelfContained(i.statement))
        .map((i) => `${i.file}: ${i.statement}`),
    ).toEqual([]);
  });

  it('tells a self-contained lib module from one that imports code', () => {
    expect(isSelfContained("import { parseNodes } from '@/lib/a11y/report/findings';")).toBe(true);
    expect(isSelfContained("import { siteSchema } from '@/lib/api/schemas/resources';")).toBe(false);
    expect(isSelfContained("import { request } from '@/lib/net/request';")).toBe(false);
  });

  it('declare no resource type by hand: components/api/types.ts only derives them from response schemas', () => {
    const source = readFileSync(path.resolve('components/api/types.ts'), 'utf8');
    const aliases = [...source.matchAll(/^export type (\w+) = (.+);$/gm)];
    expect(aliases.length).toBeGreaterThan(0);
    const handWritten = aliases
      .filter(
        ([, , definition]) =>
          !/^z\.output<typeof \w+>$|^\w+\['\w+'\]\[(?:number|string)\]$/.test(definition ?? ''),
      )
      .map(([line]) => line);
    expect(handWritten).toEqual([]);
    expect(source).not.toMatch(/^export (?:interface|type \w+ = \{)/m);
  });
});
