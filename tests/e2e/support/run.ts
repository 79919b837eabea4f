import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The run folder playwright.config.ts created: server log, database, saved sign-in state. */
export function runDir(): string {
  const dir = process.env.SITEWATCH_E2E_DIR;
  if (!dir) throw new Error('SITEWATCH_E2E_DIR is unset: run the e2e suite through playwright.config.ts');
  return dir;
}

export const ownerStatePath = () => join(runDir(), 'owner.json');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The newest sign-in code mailed to `email`, read from the outbox lines the server prints
 * (`mail to=<address> subject="123456 is your Sitewatch sign-in code"`). Waits for it to appear.
 * `after` skips codes already used, so a second sign-in never picks up the first code.
 */
export async function signInCodeFor(email: string, after?: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const latest = lastSignInCodeFor(email);
    if (latest && latest !== after) return latest;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no sign-in code for ${email} appeared in the server log`);
}

/**
 * The newest sign-in code mailed to `email` so far, if any: what a later sign-in by someone an
 * earlier spec signed in passes as `after`, so it waits for its own code.
 */
export function lastSignInCodeFor(email: string): string | undefined {
  const pattern = new RegExp(
    `mail to=${escapeRegExp(email)} subject="(\\d{6}) is your Sitewatch sign-in code"`,
    'g',
  );
  const log = readFileSync(join(runDir(), 'server.log'), 'utf8');
  return [...log.matchAll(pattern)].at(-1)?.[1];
}

/**
 * The newest link to `path` (`/invite/`, `/confirm/`, `/unsubscribe/`) in a mail to `email` whose
 * subject matches `subject`, from the outbox body printed under the subject line. Links already
 * seen (`except`) are skipped, so a second mail of the same kind is waited for. Waits for it to appear.
 */
export async function linkMailedTo(
  email: string,
  subject: string,
  path: string,
  { except = [], timeoutMs = 15_000 }: { except?: string[]; timeoutMs?: number } = {},
): Promise<string> {
  const pattern = new RegExp(
    `mail to=${escapeRegExp(email)} subject="[^"]*${subject}[^"]*"[^\\n]*\\n(?:(?!mail to=)[\\s\\S])*?(https?://[^\\s\\]>)"]+${escapeRegExp(path)}[^\\s\\]>)"]+)`,
    'g',
  );
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const log = readFileSync(join(runDir(), 'server.log'), 'utf8');
    const link = [...log.matchAll(pattern)]
      .map((m) => m[1]!)
      .filter((l) => !except.includes(l))
      .at(-1);
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${email} with a ${path} link appeared in the server log`);
}

/** The invitation link mailed to `email`. */
export const invitationLinkFor = (email: string, timeoutMs = 15_000) =>
  linkMailedTo(email, 'invited you', '/invite/', { timeoutMs });
