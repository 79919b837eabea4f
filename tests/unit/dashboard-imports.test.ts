import { readdirSync, readFileSync } from 'node:fs';
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

describe('dashboard components', () => {
  it('import from lib/ only as types, so no server code (zod schemas, lib/net, the database) reaches the browser', () => {
    const imports = sourceFiles(path.resolve('components')).flatMap((file) =>
      libImports(readFileSync(file, 'utf8')).map((i) => ({ ...i, file: path.relative('.', file) })),
    );
    // The resource types are read from lib/api/schemas: the scan sees those imports.
    expect(imports.some((i) => i.file === path.join('components', 'api', 'types.ts'))).toBe(true);
    expect(imports.filter((i) => !i.typeOnly).map((i) => `${i.file}: ${i.statement}`)).toEqual([]);
  });

  it('declare no resource type by hand: components/api/types.ts only derives them from response schemas', () => {
    const source = readFileSync(path.resolve('components/api/types.ts'), 'utf8');
    const aliases = [...source.matchAll(/^export type (\w+) = (.+);$/gm)];
    expect(aliases.length).toBeGreaterThan(0);
    const handWritten = aliases
      .filter(
        ([, , definition]) => !/^z\.output<typeof \w+>$|^\w+\['\w+'\]\[number\]$/.test(definition ?? ''),
      )
      .map(([line]) => line);
    expect(handWritten).toEqual([]);
    expect(source).not.toMatch(/^export (?:interface|type \w+ = \{)/m);
  });
});
