import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as openapi from '@/app/api/v1/openapi.json/route';
import { ROUTES } from '@/app/api/v1/routes';
import { HTTP_METHODS } from '@/lib/api/methods';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): this file checks
 * the document the client is generated from, against ROUTES and the route files.
 */

/** Route files under app/api/v1 as public paths: `sites/[id]/route.ts` -> `/v1/sites/{id}`. */
function routeFiles(dir = path.resolve('app/api/v1'), prefix = '/v1'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile() && entry.name === 'route.ts') return [prefix];
    if (!entry.isDirectory()) return [];
    return routeFiles(path.join(dir, entry.name), `${prefix}/${entry.name.replace(/^\[(\w+)\]$/, '{$1}')}`);
  });
}

describe('GET /v1/openapi.json', () => {
  it('documents every /v1 route file and every method it exports', async () => {
    const documented = ROUTES.map((r) => r.path).sort();
    // The catch-all and the document itself are not API operations.
    const files = routeFiles()
      .filter((p) => !p.includes('[...') && p !== '/v1/openapi.json')
      .sort();
    expect(documented).toEqual(files);

    const doc = (await (await openapi.GET(new Request('http://localhost/api/v1/openapi.json'))).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security: unknown[] }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const declared = HTTP_METHODS.filter((m) => {
        const handler = route.handlers[m];
        return handler !== undefined && 'meta' in handler;
      });
      expect(Object.keys(doc.paths[route.path] ?? {}).sort()).toEqual(
        declared.map((m) => m.toLowerCase()).sort(),
      );
    }
  });

  it('declares a response schema for every operation, so each is documented and checked under test', async () => {
    const doc = (await (await openapi.GET(new Request('http://localhost/api/v1/openapi.json'))).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ operation: `${method} ${path}`, op })),
    );
    expect(operations.length).toBe(
      ROUTES.flatMap((r) => HTTP_METHODS.filter((m) => r.handlers[m] && 'meta' in r.handlers[m])).length,
    );
    const withoutSchema = operations
      .filter(({ op }) => {
        const success = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
        return success.length === 0 || success.some(([, response]) => response.content === undefined);
      })
      .map(({ operation }) => operation);
    expect(withoutSchema).toEqual([]);
  });

  it('marks session-only groups and describes request and response bodies', async () => {
    type Operation = {
      security: unknown[];
      parameters: unknown[];
      responses: Record<string, unknown>;
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
    };
    const doc = (await (await openapi.GET(new Request('http://localhost/api/v1/openapi.json'))).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    expect(doc.paths['/v1/keys']?.post?.security).toEqual([{ session: [] }]);
    expect(doc.paths['/v1/sites']?.get?.security).toEqual([{ apiKey: [] }, { session: [] }]);
    const create = doc.paths['/v1/sites']?.post as Operation;
    expect(create.requestBody.content['application/json'].schema.properties.rootUrl).toBeDefined();
    expect(Object.keys(create.responses)).toContain('201');
    expect(doc.paths['/v1/sites/{id}']?.patch?.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    );
  });
});
