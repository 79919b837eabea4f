import type { ApiHandler } from './pipeline';
import { addressLimited } from './rate-limit';

/** The methods a /v1 route file may declare (HEAD and OPTIONS follow from them). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Declared = Partial<Record<HttpMethod, ApiHandler>>;
type PlainHandler = (req: Request) => Promise<Response>;
/** A method's 405 answer; `allows` names the methods its route declares. */
export type NotAllowedHandler = PlainHandler & { allows: readonly HttpMethod[] };
export type OtherMethods<D extends Declared> = Record<Exclude<HttpMethod, keyof D>, NotAllowedHandler> & {
  OPTIONS: PlainHandler;
};

/** A request's path as the API names it (`/v1/...`), whichever of the two prefixes it came by. */
export function publicPath(req: Request): string {
  return new URL(req.url).pathname.replace(/^\/api(?=\/v1(\/|$))/, '');
}

/**
 * The answers for every method a route file does not declare. Next.js would send a bodiless 405
 * for them, and an OPTIONS whose Allow header listed them as implemented; the API's contract is
 * that every error carries `{error}`, so each route file ends with
 * `export const { PUT, DELETE, OPTIONS } = otherMethods({ GET, POST })` (the type only lets the
 * undeclared methods be taken).
 */
export function otherMethods<D extends Declared>(declared: D): OtherMethods<D> {
  const allowed = HTTP_METHODS.filter((m) => declared[m]);
  const allow = [...allowed, ...(declared.GET ? ['HEAD'] : []), 'OPTIONS'].sort().join(', ');
  const notAllowed: NotAllowedHandler = Object.assign(
    addressLimited(async (req: Request) =>
      Response.json(
        { error: `${req.method} is not allowed on ${publicPath(req)}; it answers ${allowed.join(', ')}` },
        { status: 405, headers: { allow } },
      ),
    ),
    { allows: allowed },
  );
  const options: PlainHandler = addressLimited(
    async () => new Response(null, { status: 204, headers: { allow } }),
  );
  const handlers: Record<string, PlainHandler> = { OPTIONS: options };
  for (const method of HTTP_METHODS) if (!declared[method]) handlers[method] = notAllowed;
  return handlers as OtherMethods<D>;
}
