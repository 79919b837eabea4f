import { NextResponse } from 'next/server';

/**
 * What Next.js would answer before any route file runs, answered here with `{error}` as the API
 * promises for every failure:
 * - a method it does not route (PROPFIND, ...) would get a bodiless 400;
 * - a path whose percent-encoding is malformed (`/v1/sites/%ZZ`) would fail in parameter decoding
 *   with a bare 500.
 * Methods a route merely does not declare are answered by the route file itself (`otherMethods`),
 * which knows what to put in `Allow`.
 */
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);

export function proxy(request: Request): NextResponse {
  if (!ROUTED_METHODS.has(request.method)) {
    return NextResponse.json(
      { error: `the API does not implement the ${request.method} method` },
      { status: 501 },
    );
  }
  const { pathname } = new URL(request.url);
  if (!isWellEncoded(pathname)) {
    return NextResponse.json({ error: 'the path is not validly percent-encoded' }, { status: 400 });
  }
  // A notification mail's List-Unsubscribe URL is the unsubscribe page's: a person opening it gets
  // the page (GET, which changes nothing), a mail client's RFC 8058 one-click POST goes to the API.
  if (request.method === 'POST' && pathname.startsWith('/unsubscribe/')) {
    return NextResponse.rewrite(new URL(`/api/v1${pathname}`, request.url));
  }
  return NextResponse.next();
}

function isWellEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = { matcher: ['/v1/:path*', '/api/v1/:path*', '/unsubscribe/:path*'] };
