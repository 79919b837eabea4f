'use client';

import { useEffect, useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { AlertOfferResponse, NotificationSettings } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';

type Outcome = { tone: 'success' | 'info' | 'danger'; text: string };

/**
 * The offer a new owner or admin gets (GET /v1/notifications/alert-offer): receive the
 * organization's uptime and performance alerts with one click, or dismiss it. Nothing is added
 * until they click; either answer is stored, so it does not come back. After an answer, focus moves
 * to the message that says what happened (the banner and its buttons are gone).
 */
export function AlertOfferBanner({ onAccepted }: { onAccepted?: (settings: NotificationSettings) => void }) {
  const offer = useApi<AlertOfferResponse>('/v1/notifications/alert-offer');
  const [pending, setPending] = useState<'accept' | 'dismiss' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const message = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (outcome) message.current?.focus();
  }, [outcome]);

  async function answer(accept: boolean) {
    setPending(accept ? 'accept' : 'dismiss');
    try {
      const { settings } = await requestJson<{ settings: NotificationSettings }>(
        '/v1/notifications/alert-offer',
        { method: 'POST', body: { accept } },
      );
      setOutcome(
        accept
          ? {
              tone: 'success',
              text: 'You now receive uptime and performance alerts, by email. Change it under Default receivers.',
            }
          : {
              tone: 'info',
              text: 'Dismissed. You can tick yourself under Default receivers at any time.',
            },
      );
      // The offer is answered: a later visit must not show it from the cache.
      void offer.mutate();
      if (accept) onAccepted?.(settings);
    } catch (e) {
      setOutcome({ tone: 'danger', text: failureMessage(e, 'Could not answer the offer.') });
    } finally {
      setPending(null);
    }
  }

  if (outcome) {
    return (
      <div ref={message} tabIndex={-1} className="focus:outline-none">
        <Alert tone={outcome.tone}>{outcome.text}</Alert>
      </div>
    );
  }
  const open = offer.data?.alertOffer;
  if (!open) return null;
  return (
    <section
      aria-labelledby="alert-offer-title"
      className="rounded-md border border-accent-100 bg-accent-50 px-4 py-3 text-sm text-accent-800"
    >
      <h2 id="alert-offer-title" className="font-semibold text-zinc-900">
        Receive this organization&apos;s alerts?
      </h2>
      <p className="mt-1">
        You became an owner or admin on {formatDateTime(open.offeredAt)}. Outages, recoveries and failing Core
        Web Vitals are emailed to the receivers below; you are not one of them yet.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="primary" pending={pending === 'accept'} onClick={() => void answer(true)}>
          Alert me
        </Button>
        <Button pending={pending === 'dismiss'} onClick={() => void answer(false)}>
          Not now
        </Button>
      </div>
    </section>
  );
}
