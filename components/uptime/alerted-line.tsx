import Link from 'next/link';
import type { MonitorLive } from '@/components/api/types';
import { Alert } from '@/components/ui/surface';

type Alerting = MonitorLive['alerting'];
type Receiver = NonNullable<Alerting['openIncident']>['receivers'][number];

const CHANNEL_WORDS: Record<Receiver['channel'], string> = {
  email: 'by email',
  slack: 'on Slack',
  discord: 'on Discord',
  teams: 'on Microsoft Teams',
  http: 'by webhook',
};

const named = (receivers: Receiver[]) =>
  receivers.map((r) => `${r.name} ${CHANNEL_WORDS[r.channel]}`).join(', ');

const ChooseWho = () => (
  <>
    Choose who in{' '}
    <Link href="/notifications" className="font-medium underline">
      Notifications
    </Link>
    .
  </>
);

/**
 * Whether the outage banner's line says nobody was (or will be) alerted: the page then shows no
 * second warning saying the same.
 */
export function alertedLineSaysNobody(alerting: Alerting): boolean {
  const alert = alerting.openIncident;
  if (!alert) return false;
  if (alert.status === 'queued') return alerting.outageReceivers === 0;
  return alert.status === 'resolved' && alert.receivers.length === 0;
}

/**
 * The outage banner's "who was alerted" line, from the open incident's actual deliveries (GET
 * .../live `alerting`), never from what the settings say should happen: it names each receiver and
 * channel, and says plainly when nobody was alerted.
 */
export function AlertedLine({ alerting }: { alerting: Alerting }) {
  const alert = alerting.openIncident;
  if (!alert) return null;
  if (alert.status === 'queued') {
    return alertedLineSaysNobody(alerting) ? (
      <p>
        Nobody will be alerted: no one receives uptime alerts. <ChooseWho />
      </p>
    ) : (
      <p>The alert is being sent to the site&apos;s uptime receivers.</p>
    );
  }
  if (alert.status === 'failed') {
    return (
      <p>
        The alert could not be sent: see the{' '}
        <Link href="/notifications/deliveries" className="font-medium underline">
          delivery log
        </Link>
        .
      </p>
    );
  }
  if (alert.status === 'missing') return <p>No record of this incident&apos;s alert remains.</p>;
  if (alert.receivers.length === 0) {
    return (
      <p>
        Nobody was alerted: no one receives uptime alerts. <ChooseWho />
      </p>
    );
  }
  const sent = alert.receivers.filter((r) => r.state === 'sent');
  const sending = alert.receivers.filter((r) => r.state === 'pending' || r.state === 'sending');
  const failed = alert.receivers.filter((r) => r.state === 'failed' || r.state === 'cancelled');
  const parts = [
    sent.length ? `Alerted ${named(sent)}.` : '',
    sending.length ? `Sending to ${named(sending)}.` : '',
    failed.length ? `Not delivered to ${named(failed)}.` : '',
  ].filter(Boolean);
  return (
    <p>
      {parts.join(' ')} Another alert follows when it recovers.
      {failed.length ? (
        <>
          {' '}
          See the{' '}
          <Link href="/notifications/deliveries" className="font-medium underline">
            delivery log
          </Link>
          .
        </>
      ) : null}
    </p>
  );
}

/**
 * Shown on the monitor page while an outage would alert nobody: the form and the banner must not
 * promise an alert that will not go out. Not while the outage banner on the page already says
 * nobody was alerted (`bannerShown`: the banner with its alerted line is on the page).
 */
export function NobodyAlertedWarning({
  alerting,
  bannerShown = false,
}: {
  alerting: Alerting;
  bannerShown?: boolean;
}) {
  if (alerting.outageReceivers > 0) return null;
  if (bannerShown && alertedLineSaysNobody(alerting)) return null;
  return (
    <Alert tone="warning" title="Nobody receives this monitor's alerts">
      <p>
        No one receives uptime alerts for this site and the monitor has no extra receivers, so an outage would
        alert nobody. <ChooseWho />
      </p>
    </Alert>
  );
}
