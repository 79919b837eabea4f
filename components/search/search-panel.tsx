'use client';

import { useRouter } from 'next/navigation';
import { type ReactNode, useState, useTransition } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { SearchAnalytics, SearchConnection, SearchConnectResponse } from '@/components/api/types';
import { useAttempt } from '@/components/api/use-attempt';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormError } from '@/components/ui/field';
import { Alert, Section } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';
import { DropAlertSettings } from './drop-alert-settings';
import { PropertyPicker } from './property-picker';
import { TrafficReport } from './traffic-report';

/**
 * The Search tab below its app and server checks: connect, choose the property, the traffic, the
 * drop alert's settings, disconnect. The server component above reads the connection and analytics
 * (lib/dashboard/search); actions go through /v1 and then refresh that read, so what shows is
 * always what the API holds. Members see the same facts without the controls.
 */
export function SearchPanel({
  siteId,
  connection,
  analytics,
  days,
  canManage,
}: {
  siteId: string;
  connection: SearchConnection;
  analytics: SearchAnalytics | null;
  days: number;
  canManage: boolean;
}) {
  const router = useRouter();
  const announcer = useAnnouncer();
  const attempt = useAttempt(announcer);
  const [, startRefresh] = useTransition();
  const refresh = () => startRefresh(() => router.refresh());
  const { status } = connection;

  const disconnect = () =>
    attempt({ what: 'Disconnect failed', focus: true }, async () => {
      await requestJson<SearchConnection>(`/v1/sites/${siteId}/search`, { method: 'DELETE' });
      announcer.announce(
        'Disconnected from Google Search Console. The stored search data was deleted and access was revoked.',
        { focus: true },
      );
      refresh();
    });

  const disconnectControl = canManage ? (
    <ConfirmButton
      label="Disconnect"
      confirmLabel="Disconnect and delete search data"
      onConfirm={disconnect}
    />
  ) : null;

  return (
    <div className="space-y-6">
      <Announcement announcer={announcer} />
      {status === null || status === 'revoked' ? (
        <Section
          id="search-connect"
          title="Connect Google Search Console"
          headingLevel={3}
          description="See how many people find this site on Google: clicks and impressions per day from the site owner’s own Search Console account, and an alert when clicks fall off. Sitewatch asks for read-only access."
        >
          {connection.configured ? (
            canManage ? (
              <ConnectButton siteId={siteId}>Connect Google Search Console</ConnectButton>
            ) : (
              <p className="text-sm text-zinc-600">
                An owner or admin can connect the site’s Search Console account.
              </p>
            )
          ) : (
            <NotConfigured />
          )}
        </Section>
      ) : (
        <>
          {status === 'error' ? (
            <Alert tone="danger" title="Search data is not syncing">
              <p>{connection.error ?? 'The last sync failed.'}</p>
              {canManage && connection.configured ? (
                <div className="mt-3">
                  <ConnectButton siteId={siteId}>Reconnect Google Search Console</ConnectButton>
                </div>
              ) : canManage ? null : (
                <p className="mt-1">An owner or admin can reconnect the account.</p>
              )}
            </Alert>
          ) : null}
          {connection.configured ? null : <NotConfigured />}
          <Section
            id="search-connection"
            title="Search Console connection"
            headingLevel={3}
            actions={disconnectControl}
          >
            <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
              <Fact label="Google account">{connection.accountEmail ?? '—'}</Fact>
              <Fact label="Property">
                <span className="break-all">{connection.property ?? 'not chosen yet'}</span>
              </Fact>
              <Fact label="Last sync">
                {connection.analyticsSyncedAt
                  ? formatDateTime(connection.analyticsSyncedAt)
                  : status === 'connected'
                    ? 'the first sync is under way'
                    : 'none yet'}
              </Fact>
            </dl>
          </Section>
          {status === 'pending-property' ? (
            <Section
              id="search-property"
              title="Choose the property"
              headingLevel={3}
              description="The Search Console property whose traffic this site reports: a URL-prefix property (https://www.example.com/) or a domain property (sc-domain:example.com)."
            >
              {canManage && connection.configured ? (
                <PropertyPicker
                  siteId={siteId}
                  onSaved={(property) => {
                    announcer.announce(
                      `Property saved: ${property}. The first sync fetches the last 90 days; the figures appear here when it has run.`,
                      { focus: true },
                    );
                    refresh();
                  }}
                />
              ) : (
                <p className="text-sm text-zinc-600">
                  {canManage
                    ? 'The property can be chosen once this server’s Google client is configured again.'
                    : 'An owner or admin chooses the property.'}
                </p>
              )}
            </Section>
          ) : null}
          {analytics ? <TrafficReport siteId={siteId} analytics={analytics} days={days} /> : null}
          {status === 'connected' || status === 'error' ? (
            <DropAlertSettings
              siteId={siteId}
              dropAlert={connection.dropAlert}
              canManage={canManage}
              onSaved={refresh}
            />
          ) : null}
        </>
      )}
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-zinc-600">{label}</dt>
      <dd className="mt-0.5 text-zinc-900">{children}</dd>
    </div>
  );
}

function NotConfigured() {
  return (
    <Alert tone="info" title="Search Console is not set up on this server">
      Connecting needs a Google OAuth client, which the server’s operator sets with GOOGLE_CLIENT_ID and
      GOOGLE_CLIENT_SECRET.
    </Alert>
  );
}

/** Asks the API for Google's consent screen and goes there; Google sends the browser back to this tab. */
function ConnectButton({ siteId, children }: { siteId: string; children: ReactNode }) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState('');
  return (
    <div className="space-y-2">
      <Button
        variant="primary"
        pending={pending}
        onClick={async () => {
          setPending(true);
          setProblem('');
          try {
            const { authorizeUrl } = await requestJson<SearchConnectResponse>(
              `/v1/sites/${siteId}/search/connect`,
              { method: 'POST' },
            );
            window.location.assign(authorizeUrl);
          } catch (error) {
            setPending(false);
            setProblem(failureMessage(error, 'Could not start the connection to Google.'));
          }
        }}
      >
        {children}
      </Button>
      <FormError>{problem}</FormError>
    </div>
  );
}
