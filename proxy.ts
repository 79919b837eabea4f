import { NextResponse } from 'next/server';

/**
 * Next.js answers a method it does not route (TRACE, PROPFIND, ...) with a bodiless 400 before any
 * route file runs; the API promises `{error}` on every failure, so those are answered here. Methods
 * a route merely does not declare are answered by the route file itself (`otherMethods`), which
 * knows what to put in `Allow`.
 */
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);

export function proxy(request: Request): NextResponse {
  if (ROUTED_METHODS.has(request.method)) return NextResponse.next();
  return NextResponse.json(
    { error: `the API does not implement the ${request.method} method` },
    { status: 501 },
  );
}

export const config = { matcher: ['/v1/:path*', '/api/v1/:path*'] };
