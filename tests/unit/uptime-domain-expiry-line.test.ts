import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UptimeMonitor } from '@/components/api/types';
import { DomainExpiry } from '@/components/uptime/domain-expiry';

/*
 * Issue 26 item 7 on the monitor page: the domain's registration expiry beside the certificate's, in
 * its style (date and days left, red inside the first warning's 30 days), or what is known in words.
 * The reading itself is tested in tests/integration/uptime-domain-expiry.
 */

const DAY = 86_400_000;
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
const render = (fields: Partial<UptimeMonitor>) =>
  renderToStaticMarkup(
    createElement(DomainExpiry, {
      monitor: {
        domain: 'example.com',
        domain_expiry_state: 'found',
        domain_expires_at: null,
        domain_expiry_checked_at: Date.UTC(2026, 10, 28, 9, 5),
        domain_expiry_note: null,
        ...fields,
      } as UptimeMonitor,
    }),
  );

describe("the monitor page's domain expiry", () => {
  it('gives the date and the days left, red inside 30 days', () => {
    const far = render({ domain_expires_at: Date.now() + 200.5 * DAY });
    expect(text(far)).toMatch(
      /^Domain example\.com expires .+ \(in 200 days\) Read from the registry \(RDAP\) /,
    );
    expect(far).not.toContain('text-red-800');
    const near = render({ domain_expires_at: Date.now() + 12.5 * DAY });
    expect(text(near)).toContain('(in 12 days)');
    expect(near).toContain('text-red-800');
    expect(text(render({ domain_expires_at: Date.now() - 2 * DAY }))).toContain('(expired)');
  });

  it('says why there is no date; nothing for a heartbeat monitor', () => {
    const note =
      "The registry of .de has no RDAP server (IANA's bootstrap file lists none), so the expiry cannot be read.";
    expect(
      text(render({ domain: 'example.de', domain_expiry_state: 'no_rdap', domain_expiry_note: note })),
    ).toContain(`Domain example.de expires no RDAP server ${note}`);
    expect(render({ domain: null, domain_expiry_state: null, domain_expiry_checked_at: null })).toBe('');
  });
});
