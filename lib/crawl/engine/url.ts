import { parseUrl } from '@/lib/net/url';
import { compileGlobs, globProblem } from './glob';

/** Spec limit on `excludePaths` and `stripParams` entries per site. */
export const MAX_EXCLUDE_PATHS = 200;
export const MAX_STRIP_PARAMS = 200;
const MAX_GLOB_LENGTH = 500;
/**
 * Characters across a site's `excludePaths` (200 entries of 50 characters). Matching a path costs
 * up to its length times the automaton's size, which grows with the patterns' total length: at
 * 10,000 characters the most hostile list costs about 0.3 s for a 2,000-character path, where
 * 200 entries of 500 characters cost several seconds.
 */
export const MAX_EXCLUDE_PATHS_LENGTH = 10_000;
/**
 * Wildcards across a site's `excludePaths`, as the matcher reads them: each run of `*`, each `?`
 * and `[...]` but a pattern's trailing `*` or `**`, and the `**` segment implied in front of every
 * pattern that does not start with `/`. A path's cost is its length times the states alive at
 * once, and only wildcards stay alive past a mismatch: with 100 (and at most 200 trailing ones)
 * the most hostile list costs about 10 ms for a 2,000-character path (0.2 s with the 10,000
 * characters above all spent on `a*a*...`), while real lists (`/blog/**`, `*.pdf`, a few dozen
 * entries) use a fraction of it.
 */
export const MAX_EXCLUDE_WILDCARDS = 100;
const MAX_PARAM_LENGTH = 200;

/**
 * The frontier's key for a URL: two spellings of the same page must produce the same string.
 * Resolves `input` against `base`, lowercases scheme and host, drops default ports and the
 * fragment (all via WHATWG URL), removes the query parameters named in `stripParams`
 * (case-sensitive, compared after percent-decoding) and an empty `?`. Path case and the order and
 * encoding of the remaining parameters are kept: servers may treat them as significant.
 * Returns null for anything that is not an http(s) URL.
 */
export function normalizeUrl(
  input: string,
  base?: string | URL,
  stripParams?: ReadonlySet<string> | readonly string[],
): string | null {
  const url = parseUrl(input, base);
  if (url === null) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const names = stripParams instanceof Set ? stripParams : stripParams ? new Set(stripParams) : null;
  if (names && names.size > 0 && url.search.length > 1) url.search = stripQuery(url.search.slice(1), names);
  return withoutFragmentOrEmptyQuery(url.href);
}

/**
 * Drops the fragment and a bare `?` from a serialized URL. String surgery rather than URL setters
 * (this runs for every link of every page): in a WHATWG-serialized href, `#` appears only as the
 * fragment delimiter, and the first `?` starts the query.
 */
function withoutFragmentOrEmptyQuery(href: string): string {
  const hash = href.indexOf('#');
  const out = hash === -1 ? href : href.slice(0, hash);
  return out.indexOf('?') === out.length - 1 ? out.slice(0, -1) : out;
}

function decodeParamName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** Filters `a=1&b=2` by name without re-encoding the pairs that stay. */
function stripQuery(query: string, names: ReadonlySet<string>): string {
  const kept: string[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeParamName(eq === -1 ? pair : pair.slice(0, eq));
    if (!names.has(name)) kept.push(pair);
  }
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

function bareHostname(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * Whether `url` is inside the crawl boundary: the exact hostname of the site's root URL (the spec's
 * hostname whitelist). `www.example.com` and `example.com` are different sites; any port and
 * either scheme count as the same site.
 */
export function isSameSite(url: string | URL, hostname: string): boolean {
  const host = typeof url === 'string' ? (hostOfHref(url) ?? parseUrl(url)?.hostname) : url.hostname;
  return host !== undefined && bareHostname(host) === bareHostname(hostname);
}

/**
 * The hostname of an http(s) URL already in WHATWG-serialized form (what normalizeUrl returns),
 * read without parsing it again: `scheme://[userinfo@]host[:port]/...`. Anything outside the plain
 * characters such a form has (backslashes, whitespace, percent-escapes, which the URL parser would
 * reinterpret) returns null, and the caller falls back to the parser.
 */
function hostOfHref(href: string): string | null {
  const start = href.startsWith('https://') ? 8 : href.startsWith('http://') ? 7 : -1;
  if (start === -1) return null;
  let end = start;
  for (; end < href.length; end++) {
    const c = href.charCodeAt(end);
    if (c === 0x2f /* / */ || c === 0x3f /* ? */ || c === 0x23 /* # */) break;
    if (!PLAIN_AUTHORITY[c]) return null;
  }
  let authority = href.slice(start, end);
  const at = authority.lastIndexOf('@');
  if (at !== -1) authority = authority.slice(at + 1);
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    return close === -1 ? null : authority.slice(0, close + 1);
  }
  const colon = authority.indexOf(':');
  return colon === -1 ? authority : authority.slice(0, colon);
}

/** Letters, digits and `.-_~:@[]`: the characters of a serialized authority read as is. */
const PLAIN_AUTHORITY: boolean[] = Array.from({ length: 128 }, (_, c) =>
  /[A-Za-z0-9._~:@[\]-]/.test(String.fromCharCode(c)),
);

/**
 * Exclude globs (`excludePaths`) are matched against the URL's decoded pathname, never the query:
 * - a pattern starting with `/` is anchored at the start of the path: `/blog/**` matches `/blog`,
 *   `/blog/` and everything below; `/private/*` matches `/private/x` but not `/private/x/y`;
 * - a pattern without a leading `/` matches at any depth: `*.pdf` matches `/files/a.pdf`,
 *   `tag/**` matches `/en/tag/news`;
 * - a trailing slash on the path is ignored (`/about` also excludes `/about/`);
 * - `*` and `?` do not cross `/`; `**` does; matching is case-sensitive and `*` matches dot-files;
 *   `[a-z]` and `{a,b}` work as in a shell (the full syntax is in `./glob`).
 * Matching takes time linear in the path (no backtracking), whatever the patterns.
 */
export type PathMatcher = (url: string | URL) => boolean;

/** The matcher of an empty excludePaths: nothing excluded (compared by identity to skip work). */
export const NEVER: PathMatcher = () => false;

export function compileExcludes(globs: readonly string[]): PathMatcher {
  const patterns = globs.map((g) => g.trim()).filter((g) => g !== '');
  if (patterns.length === 0) return NEVER;
  const set = compileGlobs(patterns.map((g) => (g.startsWith('/') ? g : `**/${g}`)));
  return (url) => {
    const path = decodedPathname(url);
    if (path === null) return false;
    if (set.matches(path)) return true;
    return path.length > 1 && path.endsWith('/') && set.matches(path.slice(0, -1));
  };
}

function decodedPathname(url: string | URL): string | null {
  const pathname = typeof url === 'string' ? parseUrl(url)?.pathname : url.pathname;
  if (pathname === undefined) return null;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

const compiled = new Map<string, PathMatcher>();

/** One-off form of `compileExcludes` (compiled matchers are cached by their pattern list). */
export function isExcludedPath(url: string | URL, globs: readonly string[]): boolean {
  if (globs.length === 0) return false;
  const key = globs.join('\n');
  let matcher = compiled.get(key);
  if (!matcher) {
    if (compiled.size > 100) compiled.clear();
    matcher = compileExcludes(globs);
    compiled.set(key, matcher);
  }
  return matcher(url);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Error message for one `excludePaths` entry, or null when it is usable. */
export function validateExcludeGlob(glob: string): string | null {
  if (typeof glob !== 'string' || glob.trim() === '') return 'must be a non-empty path pattern';
  if (glob.length > MAX_GLOB_LENGTH) return `must be at most ${MAX_GLOB_LENGTH} characters`;
  if (CONTROL.test(glob)) return 'must not contain control characters';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(glob.trim()))
    return 'must be a path pattern such as /blog/**, not a full URL';
  if (glob.includes('#')) return 'must not contain a fragment (#); patterns match the path only';
  const problem = globProblem(glob);
  return problem === null ? null : `is not a valid glob pattern: ${problem}`;
}

/** Error message for a whole `excludePaths` list (each entry checked by `validateExcludeGlob`), or null. */
export function validateExcludeList(globs: readonly string[]): string | null {
  const length = globs.reduce((sum, glob) => sum + glob.length, 0);
  if (length > MAX_EXCLUDE_PATHS_LENGTH) {
    return `must have at most ${MAX_EXCLUDE_PATHS_LENGTH} characters in all (has ${length})`;
  }
  const wildcards = globs.reduce((sum, glob) => sum + wildcardsIn(glob.trim()), 0);
  return wildcards > MAX_EXCLUDE_WILDCARDS
    ? `must have at most ${MAX_EXCLUDE_WILDCARDS} wildcards (*, **, ?, [...]) in all, counting one for each pattern that does not start with / and none for a trailing * or ** (has ${wildcards})`
    : null;
}

/** See MAX_EXCLUDE_WILDCARDS: unescaped `*` runs, `?` and `[`, plus the `**` segment a floating pattern implies. */
function wildcardsIn(glob: string): number {
  // A trailing `*` or `**` is not counted: it is one state reached only once the rest of its
  // pattern has matched, so a list's trailing wildcards add at most one live state per entry.
  const body = glob.replace(/(?<!\\)\*+$/, '');
  let count = body.startsWith('/') ? 0 : 1;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '?' || c === '[' || (c === '*' && body[i - 1] !== '*')) count++;
  }
  return count;
}

/** Error message for one `stripParams` entry, or null when it is usable. */
export function validateStripParam(name: string): string | null {
  if (typeof name !== 'string' || name === '') return 'must be a non-empty query parameter name';
  if (name.length > MAX_PARAM_LENGTH) return `must be at most ${MAX_PARAM_LENGTH} characters`;
  if (/[\s&=#?]/.test(name) || CONTROL.test(name)) {
    return 'must be a bare query parameter name such as utm_source (no spaces, &, =, ? or #)';
  }
  return null;
}
