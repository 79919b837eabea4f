import { and, eq } from 'drizzle-orm';
import { displayPrefix, generateKeySecret, hashKeySecret } from '@/lib/auth/key-secret';
import type { Db } from '@/lib/db/client';
import { apiKeys, invitations, members } from '@/lib/db/schema';
import { authPost, BASE, signIn } from './auth';

/** A route handler export as Next calls it: a Request and `{ params: Promise<...> }`. */
type RouteHandler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type CallOptions = {
  method?: string;
  /** Path (and query) under the app, e.g. `/api/v1/sites?x=1`. */
  path: string;
  /** Dashboard session: sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** API key: sent as `x-api-key`. */
  apiKey?: string;
  /** JSON-encoded unless it is a string, which is sent as is (to test malformed JSON). */
  body?: unknown;
  /** Route params, e.g. `{ id }` for `[id]`. */
  params?: Record<string, string>;
  headers?: Record<string, string>;
};

/** Response bodies are whatever JSON came back; the tests' expect() calls are what check their shape. */
// biome-ignore lint/suspicious/noExplicitAny: see above; typing every response here would only restate the assertions.
type Json = any;

export type CallResult<T = Json> = { status: number; body: T; headers: Headers };

/** Calls a route handler with a real Request, as the Next server would, and reads the JSON answer. */
export async function call<T = Json>(handler: RouteHandler, options: CallOptions): Promise<CallResult<T>> {
  const res = await handler(requestOf(options), { params: Promise.resolve(options.params ?? {}) });
  return readAnswer<T>(res);
}

/** The Request `call` sends: JSON body (a string as is), the credential as a header. */
export function requestOf(options: Omit<CallOptions, 'params'>): Request {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  return new Request(`${BASE}${options.path}`, { method, headers, body });
}

/** A route's answer as the tests read it: the status, the JSON body (null when empty), the headers. */
export async function readAnswer<T = Json>(res: Response): Promise<CallResult<T>> {
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: hand the text back so the assertion shows what came instead.
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A signed-in user with their personal organization (where they are owner and which is active). */
export async function signInOwner(
  db: Db,
  email: string,
): Promise<{ token: string; userId: string; tenantId: string }> {
  const { token, userId } = await signIn(db, email);
  const [member] = await db.select().from(members).where(eq(members.userId, userId)).limit(1);
  if (!member) throw new Error(`${email} has no organization after sign-in`);
  return { token, userId, tenantId: member.organizationId };
}

/**
 * Adds `email` to the organization through better-auth's invitation flow (invite, sign in, accept);
 * accepting makes that organization the invitee's active one. Returns the invitee's session.
 */
export async function addMember(
  db: Db,
  input: { ownerToken: string; tenantId: string; email: string; role: 'member' | 'admin' },
): Promise<{ token: string; userId: string; memberId: string }> {
  const invited = await authPost(
    '/organization/invite-member',
    { email: input.email, role: input.role, organizationId: input.tenantId },
    input.ownerToken,
  );
  if (invited.status !== 200) throw new Error(`invite failed: ${invited.status} ${await invited.text()}`);
  const [invitation] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.organizationId, input.tenantId), eq(invitations.email, input.email)))
    .limit(1);
  if (!invitation) throw new Error(`no invitation stored for ${input.email}`);
  const { token, userId } = await signIn(db, input.email);
  const accepted = await authPost('/organization/accept-invitation', { invitationId: invitation.id }, token);
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${await accepted.text()}`);
  const [member] = await db
    .select()
    .from(members)
    .where(and(eq(members.organizationId, input.tenantId), eq(members.userId, userId)))
    .limit(1);
  if (!member) throw new Error(`${input.email} is not a member after accepting`);
  return { token, userId, memberId: member.id };
}

/**
 * Stores an API key straight in the table (the keys API is tested on its own) and returns the secret
 * to send as `x-api-key`. `siteIds` null: every site of the organization.
 */
export async function insertApiKey(
  db: Db,
  tenantId: string,
  options: { siteIds?: string[] | null; name?: string } = {},
): Promise<string> {
  const secret = generateKeySecret();
  await db.insert(apiKeys).values({
    tenant_id: tenantId,
    name: options.name ?? 'test key',
    prefix: displayPrefix(secret),
    secret_hash: hashKeySecret(secret),
    site_ids: options.siteIds ?? null,
    created_at: Date.now(),
  });
  return secret;
}
