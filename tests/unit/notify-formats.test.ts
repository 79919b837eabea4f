import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { discordPayload } from '@/lib/notify/formats/discord';
import { emailMessage } from '@/lib/notify/formats/email';
import { httpBody, signatureHeaders } from '@/lib/notify/formats/http';
import { slackPayload } from '@/lib/notify/formats/slack';
import { teamsPayload } from '@/lib/notify/formats/teams';
import { buildMessage, type MessageContext } from '@/lib/notify/message';
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from '@/lib/notify/retry';
import { elideUrlPath } from '@/lib/notify/webhook';
import { discordProblem } from '../support/notify-receivers';

const context: MessageContext = {
  eventId: '0d6f7d52-6d1e-4f5c-8e5f-3c1c6f0b7a11',
  occurredAt: Date.UTC(2026, 10, 24, 9, 5),
  appUrl: 'https://sitewatch.example',
  organizationName: 'Acme & Co',
  site: { id: '8b9f5e0a-1c2d-4e3f-9a8b-7c6d5e4f3a2b', hostname: 'acme.example' },
};

const crawl = buildMessage(
  'crawl-summary',
  {
    runId: 'r1',
    hostname: 'acme.example',
    state: 'completed',
    error: null,
    startedAt: context.occurredAt - 600_000,
    finishedAt: context.occurredAt,
    pagesCrawled: 1200,
    linksChecked: 5400,
    brokenCount: 7,
    internalBroken: 5,
    externalBroken: 2,
    seoScore: 84,
    seoIssueCount: 31,
    a11y: { score: 91, critical: 1, serious: 2, moderate: 3, minor: 4, pagesScanned: 50 },
    limitsHit: [],
  },
  context,
);

describe('the message of each kind', () => {
  it('a crawl summary: broken links, SEO score, accessibility, a link to the broken links', () => {
    expect(crawl.title).toBe('Crawl of acme.example: 7 broken links');
    expect(crawl.facts).toEqual([
      { label: 'Pages crawled', value: '1,200' },
      { label: 'Links checked', value: '5,400' },
      { label: 'Broken links', value: '7 (5 internal, 2 external)' },
      { label: 'SEO score', value: '84/100, 31 issues' },
      { label: 'Accessibility score', value: '91/100' },
      { label: 'Accessibility violations', value: '1 critical, 2 serious, 3 moderate, 4 minor on 50 pages' },
    ]);
    expect(crawl.link.url).toBe(`https://sitewatch.example/sites/${context.site!.id}/links`);
    expect(crawl.data).toMatchObject({ brokenCount: 7, site: context.site, dashboardUrl: crawl.link.url });
  });

  it('missing payload fields are left out, never shown empty or as undefined', () => {
    const m = buildMessage('uptime-down', { monitorId: 'm', url: 'https://acme.example/' }, context);
    expect(m.title).toBe('Down: https://acme.example/');
    expect(JSON.stringify(m)).not.toContain('undefined');
    expect(m.facts.every((f) => f.value !== '')).toBe(true);
  });

  it('monitors held at the pooled allowance: the organization, counts and the billing link, no site', () => {
    const m = buildMessage(
      'allowance-reached',
      { app: 'monitors', hostname: null, period: '2026-11', allowance: 2, used: 5, held: 3 },
      { ...context, site: null },
    );
    expect(m.title).toBe('Acme & Co has more uptime monitors than its allowance');
    expect(m.summary).toContain('has 5 uptime monitors and an allowance of 2 with overage billing off');
    expect(m.summary).toContain('the newest 3 are not probed');
    expect(m.facts).toContainEqual({ label: 'Not probed', value: '3' });
    expect(m.link).toEqual({ url: 'https://sitewatch.example/billing', label: 'Open billing' });
  });

  it('a monitor’s alert targets never reach a message', () => {
    const m = buildMessage(
      'uptime-down',
      {
        monitorId: 'm',
        url: 'https://a.example/',
        alertEmails: ['x@y.z'],
        alertWebhooks: [{ kind: 'http', sealedUrl: 'https://h/' }],
      },
      context,
    );
    expect(JSON.stringify(m)).not.toContain('x@y.z');
  });
});

describe('formats', () => {
  it('email: HTML and plain text from the same React Email tree, both with the dashboard link', async () => {
    const mail = await emailMessage('ops@acme.example', crawl);
    expect(mail.subject).toBe(crawl.title);
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
    expect(mail.html).toContain(`href="${crawl.link.url}"`);
    expect(mail.html).toContain('Acme &amp; Co');
    expect(mail.text).toContain('Broken links: 7 (5 internal, 2 external)');
    expect(mail.text).toContain(crawl.link.url);
    expect(mail.text).not.toContain('<');
  });

  it('Discord: a message with every field at its longest stays within the documented limits', () => {
    const huge = {
      ...crawl,
      title: 'T'.repeat(1000),
      summary: 'S'.repeat(10_000),
      facts: Array.from({ length: 40 }, (_, i) => ({ label: `L${i}`.repeat(200), value: 'v'.repeat(3000) })),
      organizationName: 'O'.repeat(3000),
    };
    const payload = discordPayload(huge);
    expect(discordProblem(payload as unknown as Record<string, unknown>)).toBeNull();
    expect(payload.embeds[0]!.fields.length).toBeGreaterThan(0);
    expect(discordProblem(discordPayload(crawl) as unknown as Record<string, unknown>)).toBeNull();
    expect(discordPayload(crawl).embeds[0]!.fields).toHaveLength(6);
  });

  it('Slack: text fallback and Block Kit within limits, mrkdwn escaped', () => {
    const payload = slackPayload({
      ...crawl,
      summary: 'a <b> & c',
      facts: Array.from({ length: 14 }, (_, i) => ({ label: `f${i}`, value: 'v' })),
    });
    expect(payload.text).toContain('a &lt;b&gt; &amp; c');
    const fields = payload.blocks.find((b) => 'fields' in b) as { fields: unknown[] };
    expect(fields.fields).toHaveLength(10);
  });

  it('Teams: a message whose attachment is an Adaptive Card with a FactSet and an Open URL action', () => {
    const payload = teamsPayload(crawl);
    expect(payload.type).toBe('message');
    const card = payload.attachments[0]!;
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content.type).toBe('AdaptiveCard');
    expect(card.content.body.map((b) => b.type)).toEqual(['TextBlock', 'TextBlock', 'TextBlock', 'FactSet']);
    expect(card.content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'See the broken links', url: crawl.link.url },
    ]);
  });

  it('http: {type, id, timestamp, data} signed per Standard Webhooks, verifiable with each secret', () => {
    const body = httpBody(crawl);
    expect(JSON.parse(body)).toEqual({
      type: 'crawl.summary',
      id: context.eventId,
      timestamp: Date.parse('2026-11-24T09:05:00.000Z'),
      data: crawl.data,
    });
    const current = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const previous = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
    const headers = signatureHeaders('msg_abc', new Date(), body, [current, previous]);
    expect(headers['webhook-id']).toBe('msg_abc');
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'crawl.summary' });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 3).toString('base64')}`).verify(body, headers),
    ).toThrow();
  });
});

describe('retry policy and log display', () => {
  it('backs off 1, 2, 4 ... minutes up to an hour, honouring a longer Retry-After', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60,
    ]);
    expect(retryDelayMs(1, 300_000)).toBe(300_000);
    expect(retryDelayMs(1, 10 * 3600_000)).toBe(3600_000);
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:01:00 GMT', 0)).toBe(60_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });

  it('retries server errors, timeouts and rate limits, not refusals or redirects', () => {
    expect([500, 502, 503, 408, 425, 429].every(isRetryableStatus)).toBe(true);
    expect([301, 400, 401, 403, 404, 410, 422].some(isRetryableStatus)).toBe(false);
  });

  it('webhook URLs show their origin only', () => {
    expect(elideUrlPath('https://hooks.slack.com/services/T0/B0/secret')).toBe('https://hooks.slack.com/…');
    expect(elideUrlPath('https://hooks.example/')).toBe('https://hooks.example/');
    expect(elideUrlPath('https://hooks.example/?token=x')).toBe('https://hooks.example/…');
  });
});
