/**
 * The API reference outside the server: the OpenAPI document GET /v1/openapi.json answers, built
 * from the same route declarations, its lint, and the typed client generated from it.
 *
 *   npm run api:document [file]   print the document (or write it to file)
 *   npm run api:lint              lint it with Redocly CLI and redocly.yaml
 *   npm run client:generate       regenerate CLIENT_TYPES with openapi-typescript
 *
 * tests/unit/openapi-lint.test.ts and tests/integration/api-client.test.ts use the functions below,
 * so what `npm test` checks is what these commands do.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { ROUTES } from '@/app/api/v1/routes';
import { buildOpenApiDocument } from '@/lib/api/openapi';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The generated client's types, committed so the client test typechecks them. */
export const CLIENT_TYPES = path.join(root, 'tests/support/api-client/v1.d.ts');

/** The document with the server a development install has (the served one names APP_URL). */
export function openApiDocument(serverUrl = 'http://localhost:3000'): Record<string, unknown> {
  return buildOpenApiDocument(ROUTES, serverUrl);
}

/** `paths`, `components` and `operations` types for openapi-fetch, as `openapi-typescript` writes them. */
export async function clientTypes(doc = openApiDocument()): Promise<string> {
  // biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON; openapi-typescript validates it.
  const ast = await openapiTS(doc as any);
  return COMMENT_HEADER + astToString(ast);
}

export type LintProblem = {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
};

/** Redocly CLI's verdict on the document, with redocly.yaml (`format`: its json report or its own text). */
export function lintDocument(
  format: 'json' | 'codeframe',
  doc = openApiDocument(),
): { status: number; problems: LintProblem[]; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const run = spawnSync(
      path.join(root, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', path.join(root, 'redocly.yaml'), `--format=${format}`],
      {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    if (run.error) throw run.error;
    const problems =
      format === 'json' ? (JSON.parse(run.stdout) as { problems: LintProblem[] }).problems : [];
    return { status: run.status ?? 1, problems, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(command: string | undefined, arg: string | undefined): Promise<number> {
  if (command === 'document') {
    const json = JSON.stringify(openApiDocument(), null, 2);
    if (arg) writeFileSync(arg, `${json}\n`);
    else process.stdout.write(`${json}\n`);
    return 0;
  }
  if (command === 'lint') {
    const { status, output } = lintDocument('codeframe');
    process.stdout.write(output);
    return status;
  }
  if (command === 'client') {
    const types = await clientTypes();
    const before = (() => {
      try {
        return readFileSync(CLIENT_TYPES, 'utf8');
      } catch {
        return null;
      }
    })();
    writeFileSync(CLIENT_TYPES, types);
    console.log(`${path.relative(root, CLIENT_TYPES)} ${before === types ? 'unchanged' : 'written'}`);
    return 0;
  }
  console.error('usage: tsx scripts/openapi.ts document [file] | lint | client');
  return 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv[2], process.argv[3]).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
