/** One response of a redirect chain: its status and the URL that answered it. */
export interface RedirectHopResource {
  status: number | null;
  url: string;
}

/**
 * A stored redirect chain (a JSON array of `{status, url}` hops, the final response included) as its
 * hops; anything else reads as no chain.
 */
export function parseRedirectChain(chain: string | null): RedirectHopResource[] {
  if (!chain) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(chain);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((hop): RedirectHopResource[] => {
    if (typeof hop !== 'object' || hop === null || typeof (hop as { url?: unknown }).url !== 'string')
      return [];
    const { url, status } = hop as { url: string; status?: unknown };
    return [{ url, status: typeof status === 'number' ? status : null }];
  });
}
