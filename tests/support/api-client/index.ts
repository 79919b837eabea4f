import createClient from 'openapi-fetch';
import { ROUTES } from '@/app/api/v1/routes';
import type { HttpMethod } from '@/lib/api/methods';
import { BASE } from '../auth';
import type { paths } from './v1';

/*
 * The typed client an integrator generates from GET /v1/openapi.json (openapi-typescript's types in
 * ./v1.d.ts, `npm run client:generate`; openapi-fetch), pointed at this app's route handlers: each
 * request it sends is a real Request handed to the handler Next would route it to.
 */

const ROUTE_TABLE = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, names, pattern: new RegExp(`^${source}$`) };
});

/** A fetch that answers from the /v1 route handlers, as the server would (paths under /v1 or /api/v1). */
export async function routeFetch(request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname.replace(/^\/api(?=\/v1\/)/, '');
  for (const { route, names, pattern } of ROUTE_TABLE) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const handler = route.handlers[request.method as HttpMethod];
    if (!handler) break;
    const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    return handler(request, { params: Promise.resolve(params) });
  }
  return Response.json({ error: `no such endpoint: ${request.method} ${pathname}` }, { status: 404 });
}

/** A client authenticated with an API key, as an integration holds one. */
export function apiClient(apiKey: string) {
  return createClient<paths>({ baseUrl: BASE, fetch: routeFetch, headers: { 'x-api-key': apiKey } });
}
