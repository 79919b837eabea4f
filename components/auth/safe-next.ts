/** Where a signed-in visitor lands when `next` is missing or would leave the app. */
export const DEFAULT_NEXT_PATH = '/sites';

/**
 * The post-sign-in destination as a path on the app's own origin, or the fallback.
 *
 * Prefix checks on the raw string are not enough: browsers strip tabs and newlines from URLs and read
 * `\` as `/`, so `/\t/evil.example` or `/\evil.example` become `//evil.example`, another site. The value
 * is therefore resolved the way a browser resolves it, against `origin`, and kept only when the result
 * is still on that origin. The path that comes back is re-checked too: `/.//evil.example` resolves to
 * the same-origin path `//evil.example`, which would itself be read as another site.
 *
 * The sign-in page (server redirect) and the sign-in form (client navigation) both go through here.
 */
export function safeNextPath(
  value: string | string[] | undefined,
  origin: string,
  fallback = DEFAULT_NEXT_PATH,
): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return fallback;
  const base = originOf(origin);
  if (!base) return fallback;
  const resolved = sameOriginPath(raw, base);
  if (resolved === null || sameOriginPath(resolved, base) !== resolved) return fallback;
  return resolved;
}

/** `value` resolved against `origin`: its path, query and fragment when it stays there, else null. */
function sameOriginPath(value: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(value, `${origin}/`);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

function originOf(value: string): string | null {
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
