import { fetchFollowing } from '@/lib/net';

/**
 * The origin CrUX knows the site by: where its root URL ends up after redirects (`example.com`
 * redirecting to `https://www.example.com/` is `https://www.example.com`). When the root URL cannot
 * be fetched right now, its own origin.
 */
export async function siteOrigin(rootUrl: string): Promise<string> {
  try {
    const response = await fetchFollowing({ url: rootUrl, maxBytes: 0, timeoutMs: 15_000 });
    return new URL(response.url).origin;
  } catch {
    return new URL(rootUrl).origin;
  }
}
