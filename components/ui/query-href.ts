/** A page's query as plain strings: what its links carry over (filters, sort) and change. */
export type QueryState = Record<string, string | undefined>;

/**
 * `path` with `query` merged with `changes` as its search string; empty and undefined values are
 * left out, so defaults never clutter a URL and a cleared field disappears from it.
 */
export function withQuery(path: string, query: QueryState, changes: QueryState = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...changes })) {
    if (value !== undefined && value !== '') params.set(key, value);
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The first value of each search parameter, as strings (Next.js hands arrays for repeated keys). */
export function queryState(searchParams: Record<string, string | string[] | undefined>): QueryState {
  return Object.fromEntries(
    Object.entries(searchParams).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]),
  );
}
