'use client';

import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

/**
 * The dashboard's read cache (useApi), held by the layout for as long as it stays mounted: pages
 * opened again show their last answer while they read again. The layout mounts it inside the
 * organization's keyed main, so switching organizations starts an empty cache: no page shows the
 * previous organization's rows, not even until its first read. It lives in the browser's React
 * tree, not in a module, so nothing is shared between the server's requests.
 */
export function ApiCache({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ provider: () => new Map() }}>{children}</SWRConfig>;
}
