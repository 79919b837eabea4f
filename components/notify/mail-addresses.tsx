'use client';

import { useState } from 'react';
import { ApiClientError, requestJson } from '@/components/api/client';
import type { NotificationAddress } from '@/components/api/types';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, Section } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';
import { type MailTopic, TOPIC_NAMES } from '@/lib/notify/kinds';

/**
 * The mail consent of every address the notifications name (lib/notify/consent.ts): an outside
 * address receives nothing until it confirms through the link mailed to it, and any address can
 * stop a kind of mail with the one-click unsubscribe every mail carries. Owners and admins see
 * which addresses wait for a confirmation (and can mail another link, within the confirmation
 * limits: the API's 429 says until when, shown on the row), which confirmed, and what each unsubscribed from (and can
 * subscribe it again: an outside address is then asked to confirm again).
 */

type Tone = 'success' | 'warning' | 'danger' | 'neutral';

const STATUS: Record<NotificationAddress['status'], { tone: Tone; label: string }> = {
  member: { tone: 'neutral', label: 'Member' },
  confirmed: { tone: 'success', label: 'Confirmed' },
  pending: { tone: 'warning', label: 'Pending confirmation' },
  expired: { tone: 'danger', label: 'Not confirmed' },
};

function statusDetail(a: NotificationAddress): string {
  switch (a.status) {
    case 'member':
      return "A member's sign-in address: no confirmation needed.";
    case 'confirmed':
      return a.confirmedAt === null
        ? 'Receives what it is named for.'
        : `Since ${formatDateTime(a.confirmedAt)}.`;
    case 'pending':
      return `Confirmation mailed ${formatDateTime(a.confirmationSentAt)}; its link works until ${formatDateTime(a.confirmationExpiresAt)}. Nothing is sent to it before it confirms.`;
    case 'expired':
      return a.confirmationSentAt === null
        ? 'No confirmation mail went out yet. Nothing is sent to it before it confirms.'
        : `The link mailed ${formatDateTime(a.confirmationSentAt)} ran out unconfirmed. Nothing is sent to it before it confirms.`;
  }
}

/** Whether the address may be sent another confirmation mail. */
const awaitsConfirmation = (a: NotificationAddress) => a.status === 'pending' || a.status === 'expired';

export function MailAddressesSection({
  addresses,
  onChanged,
}: {
  addresses: NotificationAddress[];
  /** Reloads the settings the addresses came with, after an action changed one. */
  onChanged: () => Promise<void>;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [failures, setFailures] = useState<Record<string, string>>({});
  const announcer = useAnnouncer();

  async function act(
    key: string,
    email: string,
    path: string,
    body: unknown,
    done: (address: NotificationAddress) => string,
  ) {
    setBusy(key);
    try {
      const { address } = await requestJson<{ address: NotificationAddress }>(path, { method: 'POST', body });
      setFailures(({ [email]: _, ...rest }) => rest);
      await onChanged();
      announcer.announce(done(address));
    } catch (e) {
      const message = e instanceof ApiClientError ? e.message : String(e);
      setFailures((f) => ({ ...f, [email]: message }));
      announcer.announce(`Not sent to ${email}: ${message}`);
    } finally {
      setBusy(null);
    }
  }

  const resend = (a: NotificationAddress) =>
    act(
      `resend ${a.email}`,
      a.email,
      '/v1/notifications/confirmations',
      { email: a.email },
      () => `A new confirmation mail went to ${a.email}; the previous link no longer works.`,
    );
  const resubscribe = (a: NotificationAddress, topic: MailTopic) =>
    act(
      `resubscribe ${a.email} ${topic}`,
      a.email,
      '/v1/notifications/resubscribe',
      { email: a.email, topic },
      (now) =>
        now.status === 'member' || now.status === 'confirmed'
          ? `${a.email} receives ${TOPIC_NAMES[topic]} again.`
          : `${a.email} is subscribed to ${TOPIC_NAMES[topic]} again once it confirms: ${
              now.confirmationError ?? 'a confirmation mail went to it.'
            }`,
    );

  return (
    <Section
      id="addresses"
      title="Mail addresses"
      description="An address outside the organization receives nothing until it confirms through the link mailed to it when a list first names it. Every mail has a one-click unsubscribe that stops that kind of mail for that address."
    >
      {addresses.length === 0 ? (
        <p className="text-sm text-zinc-600">
          No outside address yet, and nobody unsubscribed: the lists name members only.
        </p>
      ) : (
        <ResponsiveTable
          caption="Addresses outside the organization and unsubscribes"
          rows={addresses}
          rowKey={(a) => a.email}
          title={{
            key: 'address',
            header: 'Address',
            className: 'min-w-56 break-all',
            cell: (a) => <span className="font-medium text-zinc-900">{a.email}</span>,
          }}
          columns={[
            {
              key: 'status',
              header: 'Confirmation',
              cell: (a) => (
                <span className="block space-y-1">
                  <Badge tone={STATUS[a.status].tone}>{STATUS[a.status].label}</Badge>
                  <span className="block text-xs text-zinc-700">{statusDetail(a)}</span>
                  {a.confirmationError && awaitsConfirmation(a) ? (
                    <span className="block text-xs text-red-800">{a.confirmationError}</span>
                  ) : null}
                  {failures[a.email] ? (
                    <span className="block text-xs text-red-800">{failures[a.email]}</span>
                  ) : null}
                </span>
              ),
            },
            {
              key: 'unsubscribed',
              header: 'Unsubscribed from',
              cell: (a) =>
                a.unsubscribed.length === 0 ? (
                  'Nothing'
                ) : (
                  <ul className="space-y-2">
                    {a.unsubscribed.map((u) => (
                      <li key={u.topic} className="text-xs">
                        <span className="block text-sm text-zinc-900">
                          {capitalized(TOPIC_NAMES[u.topic])}
                        </span>
                        <span className="block text-zinc-700">since {formatDateTime(u.at)}</span>
                        <Button
                          className="mt-1"
                          aria-label={`Subscribe again: ${a.email} to ${TOPIC_NAMES[u.topic]}`}
                          pending={busy === `resubscribe ${a.email} ${u.topic}`}
                          onClick={() => resubscribe(a, u.topic)}
                        >
                          Subscribe again
                        </Button>
                      </li>
                    ))}
                  </ul>
                ),
            },
          ]}
          actions={(a) =>
            awaitsConfirmation(a) ? (
              <Button
                aria-label={`Resend confirmation to ${a.email}`}
                pending={busy === `resend ${a.email}`}
                onClick={() => resend(a)}
              >
                Resend confirmation
              </Button>
            ) : null
          }
        />
      )}
      <Announcement announcer={announcer} className="mt-3" />
    </Section>
  );
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
