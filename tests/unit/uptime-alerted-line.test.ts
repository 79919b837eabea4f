import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MonitorLive } from '@/components/api/types';
import { AlertedLine, NobodyAlertedWarning } from '@/components/uptime/alerted-line';

/*
 * Issue 24 item 1: the outage banner says who was alerted, by name and channel, from the incident's
 * deliveries (GET .../live `alerting`), and says plainly when nobody was; the monitor page warns
 * while an outage would alert nobody. The read itself is tested in tests/integration/notify-alerts-reach.
 */

type Alerting = MonitorLive['alerting'];
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;|&apos;/g, "'");
const line = (alerting: Alerting) => text(renderToStaticMarkup(createElement(AlertedLine, { alerting })));

describe("the outage banner's alerted line", () => {
  it('names each receiver by name and channel', () => {
    expect(
      line({
        outageReceivers: 2,
        openIncident: {
          status: 'resolved',
          receivers: [
            { type: 'member', name: 'Ana Lee', channel: 'email', state: 'sent' },
            { type: 'webhook', name: 'hooks.slack.com', channel: 'slack', state: 'sent' },
            { type: 'email', name: 'ops@example.com', channel: 'email', state: 'failed' },
          ],
        },
      }),
    ).toBe(
      'Alerted Ana Lee by email, hooks.slack.com on Slack. Not delivered to ops@example.com by email. Another alert follows when it recovers. See the delivery log.',
    );
  });

  it('says plainly when nobody was alerted, and where to choose who', () => {
    const html = renderToStaticMarkup(
      createElement(AlertedLine, {
        alerting: { outageReceivers: 0, openIncident: { status: 'resolved', receivers: [] } },
      }),
    );
    expect(text(html)).toBe(
      'Nobody was alerted: no one receives uptime alerts. Choose who in Notifications.',
    );
    expect(html).toContain('href="/notifications"');
  });

  it('does not claim a send before the alert is resolved', () => {
    expect(line({ outageReceivers: 1, openIncident: { status: 'queued', receivers: [] } })).toBe(
      "The alert is being sent to the site's uptime receivers.",
    );
    expect(line({ outageReceivers: 0, openIncident: { status: 'queued', receivers: [] } })).toMatch(
      /^Nobody will be alerted/,
    );
  });
});

describe('the nobody-alerted warning', () => {
  it('shows only while an outage would alert nobody', () => {
    const warn = (outageReceivers: number) =>
      renderToStaticMarkup(
        createElement(NobodyAlertedWarning, { alerting: { outageReceivers, openIncident: null } }),
      );
    expect(text(warn(0))).toMatch(/^Nobody receives this monitor's alerts/);
    expect(warn(1)).toBe('');
  });
});

describe('the nobody-alerted warning beside the outage banner', () => {
  const warn = (alerting: Alerting) =>
    text(renderToStaticMarkup(createElement(NobodyAlertedWarning, { alerting, bannerShown: true })));

  it('is not said twice: the banner already says nobody was, or will be, alerted', () => {
    expect(warn({ outageReceivers: 0, openIncident: { status: 'resolved', receivers: [] } })).toBe('');
    expect(warn({ outageReceivers: 0, openIncident: { status: 'queued', receivers: [] } })).toBe('');
  });

  it('still warns when the banner names who was alerted but nobody would be now', () => {
    expect(
      warn({
        outageReceivers: 0,
        openIncident: {
          status: 'resolved',
          receivers: [{ type: 'member', name: 'Ana Lee', channel: 'email', state: 'sent' }],
        },
      }),
    ).toMatch(/^Nobody receives this monitor's alerts/);
  });
});
