'use client';

/** A failed /v1 or /api/auth call, carrying the server's `{error}` (or better-auth's `message`). */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

/** What to show for a failed call: the server's message when there is one, otherwise `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiClientError ? error.message : fallback;
}

/** An announcement for a failed row action: "Revoke failed: <server message>", or "Revoke failed." */
export function failureAnnouncement(what: string, error: unknown): string {
  return error instanceof ApiClientError ? `${what}: ${error.message}` : `${what}.`;
}

async function messageOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {}
  return `request failed with status ${res.status}`;
}

/**
 * Same-origin JSON request with the session cookie. Resolves to the parsed body; rejects with
 * ApiClientError carrying the server's message so forms can show it as is.
 */
export async function requestJson<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: init.body === undefined ? undefined : { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiClientError(0, 'Could not reach the server. Check your connection and try again.');
  }
  if (!res.ok) throw new ApiClientError(res.status, await messageOf(res));
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
