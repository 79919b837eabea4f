'use client';

import { useRouter } from 'next/navigation';
import useSWR, { type SWRConfiguration, type SWRResponse, useSWRConfig } from 'swr';
import useSWRInfinite, { type SWRInfiniteResponse } from 'swr/infinite';
import { ApiClientError, requestJson } from './client';

/*
 * The dashboard's one way to read the API: SWR keyed by the GET path. One cache for every page, so
 * two parts reading the same path share one request (deduped) and a page opened again shows what
 * it read last while it reads again; `refreshInterval` polls while the tab is visible (a hidden tab
 * sends nothing; showing it again revalidates at once); a write's `mutate()` reads the path again.
 * The cache is the dashboard layout's (ApiCache), one per organization.
 */

export type ApiRead<T> = SWRResponse<T, ApiClientError>;

export type ApiReadOptions<T> = Pick<
  SWRConfiguration<T, ApiClientError>,
  'refreshInterval' | 'refreshWhenHidden' | 'onSuccess' | 'onError'
>;

const asClientError = (e: unknown) => (e instanceof ApiClientError ? e : new ApiClientError(0, String(e)));

const fetchJson = async <T>(path: string): Promise<T> => {
  try {
    return await requestJson<T>(path);
  } catch (e) {
    throw asClientError(e);
  }
};

/**
 * Settings every read shares. A failed read waits for the person's Retry (or the next poll) rather
 * than retrying on its own: each view shows the failure with a Retry button. While the path changes
 * (another range, another page of a list) the previous answer stays on screen until the new one
 * arrives, as the views expect.
 */
const DEFAULTS: SWRConfiguration = {
  shouldRetryOnError: false,
  keepPreviousData: true,
  // A read that is not polled is read once per visit and after the writes that change it: coming
  // back to the tab does not replace what a form was started from.
  revalidateOnFocus: false,
};

/** Reads a GET path (null: nothing yet); `mutate()` reads it again. */
export function useApi<T>(path: string | null, options?: ApiReadOptions<T>): ApiRead<T> {
  return useSWR<T, ApiClientError>(path, fetchJson, {
    ...DEFAULTS,
    ...options,
    ...polling(options),
  });
}

/**
 * Reads a list one page after another through its cursors (SWR's infinite mode, in the same cache):
 * `pathOf(index, previous)` gives a page's path from the page before it (null: none left). Pages are
 * read as `setSize` asks for them, from `initialSize` (0: none until asked), and asking for the
 * next page does not read the ones shown again. Asking again after a failed page reads it again.
 */
export function useApiPages<T>(
  pathOf: (index: number, previous: T | null) => string | null,
  { initialSize = 1 }: { initialSize?: number } = {},
): SWRInfiniteResponse<T, ApiClientError> {
  return useSWRInfinite<T, ApiClientError>(pathOf, fetchJson, {
    ...DEFAULTS,
    initialSize,
    revalidateFirstPage: false,
  });
}

/**
 * A polled read catches up at once when the tab is shown again (the poll sends nothing while it is
 * hidden). SWR's poll also skips its ticks while the last read failed, which would leave a polled
 * view on "live updates paused" after one failed look: it tries again one interval later instead.
 */
function polling<T>(options: ApiReadOptions<T> | undefined): SWRConfiguration<T, ApiClientError> {
  const interval = options?.refreshInterval;
  if (interval === undefined || interval === 0) return {};
  return {
    revalidateOnFocus: true,
    shouldRetryOnError: true,
    onErrorRetry: (_error, _key, config, revalidate, { retryCount }) => {
      if (!config.isVisible()) return;
      const wait = typeof interval === 'function' ? interval(undefined) : interval;
      setTimeout(() => void revalidate({ retryCount }), wait);
    },
  };
}

/**
 * For a write whose result shows on another page (a deleted site leaves the sites list): returns
 * `forget(path)`, which drops that path's cached answer, so the page opened next reads it again
 * (and shows its loading state) rather than showing the answer from before the write. Mounted
 * readers of the path read it again at once.
 */
export function useForget(): (path: string) => Promise<void> {
  const { mutate } = useSWRConfig();
  return async (path) => {
    // An explicit `undefined` empties the entry; `revalidate` also ends SWR's dedupe window for it,
    // which would otherwise serve a page opened within two seconds from the request in flight.
    await mutate(path, undefined, { revalidate: true });
  };
}

/**
 * A read that is no single /v1 GET (better-auth's client, several reads in one): the same cache and
 * settings, under `key` (null: nothing yet).
 */
export function useRead<T>(key: string | null, read: () => Promise<T>): ApiRead<T> {
  return useSWR<T, ApiClientError>(key, () => read(), DEFAULTS);
}

/**
 * A page whose data the server reads (a server component's props) refreshed on SWR's schedule:
 * `router.refresh()` every `ms` while the tab is visible, and at once when it is shown again. The
 * key names the page, so two parts of it asking for the same refresh share one.
 */
export function useServerRefresh(key: string, ms: number): void {
  const router = useRouter();
  useSWR(['server-refresh', key], () => router.refresh(), {
    refreshInterval: ms,
    // The server rendered the page just now: the first refresh is one interval away.
    revalidateOnMount: false,
    revalidateIfStale: false,
    shouldRetryOnError: false,
  });
}
