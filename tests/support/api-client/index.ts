import createClient, { type ParamsOption, type RequestBodyOption } from 'openapi-fetch';
import { DELETE, GET, PATCH, POST, PUT } from '@/app/api/v1/[[...unknown]]/route';
import { ROUTES } from '@/app/api/v1/routes';
import type { HttpMethod } from '@/lib/api/methods';
import { BASE } from '../auth';
import { type CallOptions, type CallResult, readAnswer, requestOf } from '../http';
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

/** The catch-all route (app/api/v1/[[...unknown]]), which answers every path no route has. */
const NO_SUCH_ENDPOINT: Record<HttpMethod, (req: Request) => Promise<Response>> = {
  GET,
  POST,
  PUT,
  PATCH,
  DELETE,
};

/**
 * A fetch that answers from the /v1 route handlers, as the server would (paths under /v1 or /api/v1);
 * a path no route has goes to the catch-all route, as Next hands it on.
 */
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
  const unknown = NO_SUCH_ENDPOINT[request.method as HttpMethod];
  if (unknown) return unknown(request);
  return Response.json({ error: `no such endpoint: ${request.method} ${pathname}` }, { status: 404 });
}

/** A client authenticated with an API key, as an integration holds one. */
export function apiClient(apiKey: string) {
  return createClient<paths>({ baseUrl: BASE, fetch: routeFetch, headers: { 'x-api-key': apiKey } });
}

/* The integration tests' client: the same generated types, answering as `call` does. */

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type PathWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? P : never;
}[keyof paths];
type Operation<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;

/**
 * What a request to `P` with `M` may carry: the documented path and query parameters and JSON body
 * (openapi-fetch's own option types), and extra headers. Not inferred from the argument, so an
 * undocumented body field or parameter is an excess property and fails typecheck.
 */
export type RequestOptions<P extends keyof paths, M extends Method> = ParamsOption<Operation<P, M>> &
  RequestBodyOption<Operation<P, M>> & { headers?: Record<string, string> };

/** The query parameters `M` on `P` takes, for tests that build them in a helper. */
export type Query<P extends keyof paths, M extends Method> = NonNullable<
  NonNullable<RequestOptions<P, M>['params']>['query']
>;

/** The JSON body `M` on `P` takes, for tests that build one in a helper. */
export type RequestBody<P extends keyof paths, M extends Method> = NonNullable<RequestOptions<P, M>['body']>;

type Send<M extends Method, Answer> = <P extends PathWith<M>>(
  path: P,
  // Optional when nothing in it is required (no path parameter, no required body).
  ...init: object extends RequestOptions<P, M> ? [RequestOptions<P, M>?] : [RequestOptions<P, M>]
) => Promise<Answer>;

/** An answer without its headers, for tests that compare whole answers with toEqual. */
export type StatusAndBody = Omit<CallResult, 'headers'>;

/** Who sends the requests: a dashboard session's token, an API key, or nobody (public routes). */
export type Credential = { token?: string; apiKey?: string };

export type RoutesClient<Answer = CallResult> = {
  GET: Send<'get', Answer>;
  POST: Send<'post', Answer>;
  PUT: Send<'put', Answer>;
  PATCH: Send<'patch', Answer>;
  DELETE: Send<'delete', Answer>;
  /**
   * The escape hatch for what the types forbid on purpose (malformed JSON, a body or parameter the
   * document refuses, an undocumented method): `call`'s options with the public path (`/v1/...`),
   * sent under /api like the typed requests, through ROUTES, with this client's credential.
   */
  raw(options: Omit<CallOptions, 'token' | 'apiKey' | 'params'>): Promise<Answer>;
};

/**
 * The generated client driving the /v1 route handlers in process: each request a real Request built
 * by openapi-fetch from the typed path, parameters and body, under /api/v1 as the proxy hands it
 * on, dispatched through ROUTES to the handler, and answered as `call` answers
 * (`{ status, body, headers }`), so the tests' assertions read the same on either; with
 * `{ headers: false }`, `{ status, body }` only; with `{ response: true }`, the handler's Response
 * itself, unread (for answers that are not JSON, such as a PDF's bytes).
 */
export function v1(credential?: Credential): RoutesClient;
export function v1(credential: Credential, options: { headers: false }): RoutesClient<StatusAndBody>;
export function v1(credential: Credential, options: { response: true }): RoutesClient<Response>;
export function v1(
  credential: Credential = {},
  options: { headers?: false; response?: true } = {},
): RoutesClient | RoutesClient<StatusAndBody> | RoutesClient<Response> {
  const read = async (res: Response): Promise<CallResult | StatusAndBody | Response> => {
    if (options.response) return res;
    const { status, body, headers } = await readAnswer(res);
    return options.headers === false ? { status, body } : { status, body, headers };
  };
  const headers: Record<string, string> = {};
  if (credential.token) headers.authorization = `Bearer ${credential.token}`;
  if (credential.apiKey) headers['x-api-key'] = credential.apiKey;
  // Typed at the RoutesClient methods; underneath, one untyped request function serves them all.
  const client = createClient<Record<string, Record<Method, object>>>({ baseUrl: `${BASE}/api`, headers });
  const send =
    (method: Method) =>
    async (path: string, init: { headers?: Record<string, string> } = {}) => {
      let answer: Response | undefined;
      await client.request(method, path, {
        ...init,
        // The answer is read here as `call` reads it: openapi-fetch gets a copy and leaves it unread.
        parseAs: 'stream',
        fetch: async (request: Request) => {
          answer = await routeFetch(request);
          return answer.clone();
        },
      });
      if (!answer) throw new Error(`${method.toUpperCase()} ${path}: no request was sent`);
      return read(answer);
    };
  return {
    GET: send('get'),
    POST: send('post'),
    PUT: send('put'),
    PATCH: send('patch'),
    DELETE: send('delete'),
    raw: async (options) =>
      read(await routeFetch(requestOf({ ...options, path: `/api${options.path}`, ...credential }))),
  };
}
