/**
 * The parsed URL, or null where the URL parser throws (Node 20 has no `URL.parse`). Shared by the
 * crawler and the SEO checks, so it lives below both.
 */
export function parseUrl(input: string, base?: string | URL): URL | null {
  try {
    return new URL(input, base);
  } catch {
    return null;
  }
}
