import Link from 'next/link';
import type { ReactNode } from 'react';

/**
 * The API refuses a root URL another of the organization's sites has with "rootUrl: <url> is
 * already registered as site <id>" (lib/sites/quota.ts): the id is what a script needs, but a person
 * knows the site by its hostname. The dashboard names the site (the URL's hostname, which is how a
 * site is named) and links to it.
 */
const DUPLICATE = /(\S+) is already registered as site ([0-9a-f-]{36})/;

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/\.$/, '');
  } catch {
    return url;
  }
}

/** `text` with a duplicate site's id replaced by a link to that site, named by hostname. */
export function withSiteLink(text: string): ReactNode {
  const match = DUPLICATE.exec(text);
  if (!match) return text;
  const [whole, url = '', siteId = ''] = match;
  const before = text.slice(0, match.index);
  const after = text.slice(match.index + whole.length);
  return (
    <>
      {before}
      {url} is already registered as{' '}
      <Link href={`/sites/${siteId}`} className="underline">
        {hostnameOf(url)}
      </Link>
      {after}
    </>
  );
}

/** The same, as plain text (for a summary whose entries are links themselves). */
export function withSiteName(text: string): string {
  return text.replace(DUPLICATE, (_, url: string) => `${url} is already registered as ${hostnameOf(url)}`);
}
