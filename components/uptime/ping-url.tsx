'use client';

import { useEffect, useRef, useState } from 'react';
import { requestJson } from '@/components/api/client';
import type { MonitorResponse, UptimeMonitor } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { PINGS_PER_MINUTE } from '@/lib/uptime/limits';
import { durationWords } from './words';

/** The line a cron job runs after its work: fails quietly, gives up after 10 s, tries 3 times. */
export const curlLine = (pingUrl: string) => `curl -fsS -m 10 --retry 3 ${pingUrl}`;

/**
 * A heartbeat monitor's ping URL with its `curl` line. The URL is in full only right after the
 * monitor was created or the URL rotated (`fresh`: the API keeps only the token's hash), and says
 * so; otherwise masked. Owners and admins rotate it here, after a confirmation (the old URL stops
 * working at once), and get the new one in full, focused.
 */
export function PingUrlPanel({
  siteId,
  monitor,
  fresh,
  canManage,
  onRotated,
}: {
  siteId: string;
  monitor: UptimeMonitor;
  /** The full ping URL of the answer that just created the monitor or rotated its URL. */
  fresh?: string | null;
  canManage: boolean;
  onRotated?: (monitor: UptimeMonitor) => void;
}) {
  const [shown, setShown] = useState<string | null>(fresh ?? null);
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const result = useRef<HTMLDivElement>(null);
  const [focusResult, setFocusResult] = useState(false);

  useEffect(() => {
    if (focusResult) result.current?.focus();
  }, [focusResult]);

  const rotate = async () => {
    setPending(true);
    setFailure(null);
    try {
      const { monitor: rotated } = await requestJson<MonitorResponse>(
        `/v1/sites/${siteId}/uptime/monitors/${monitor.id}/ping-url/rotate`,
        { method: 'POST' },
      );
      setShown(rotated.ping_url);
      setConfirming(false);
      setFocusResult(true);
      onRotated?.(rotated);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The ping URL could not be rotated.');
    } finally {
      setPending(false);
    }
  };

  const url = shown ?? monitor.ping_url ?? '';
  const period = monitor.period_seconds ?? 0;
  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-700">
        Have the job request this URL (GET or POST, no credential) each time it runs, at least every{' '}
        {durationWords(period)}. When no ping arrives for{' '}
        {durationWords(period + (monitor.grace_seconds ?? 0))} (the period plus the grace), an incident opens
        and the site&apos;s uptime receivers are alerted; the next ping closes it. At most {PINGS_PER_MINUTE}{' '}
        pings a minute count.
      </p>
      <div ref={result} tabIndex={-1} className="space-y-3 focus-visible:outline-none">
        {shown ? (
          <p
            role="status"
            className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          >
            <strong>Copy the ping URL now:</strong> it is shown in full only this once. Sitewatch keeps only a
            fingerprint of it; if it is lost, rotate it for a new one.
          </p>
        ) : (
          <p className="text-sm text-zinc-600">
            The URL is shown in full only when the monitor is created or the URL rotated; here it is masked.
          </p>
        )}
        <CopyLine label="Ping URL" value={url} canCopy={shown !== null} />
        <CopyLine label="Cron line" value={curlLine(url)} canCopy={shown !== null} />
      </div>
      {canManage ? (
        <div className="flex flex-wrap items-center gap-3">
          {confirming ? (
            <>
              <p className="text-sm text-zinc-800">The current ping URL stops working at once. Rotate it?</p>
              <Button size="sm" variant="danger" pending={pending} onClick={rotate}>
                Rotate now
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button size="sm" onClick={() => setConfirming(true)}>
              Rotate ping URL
            </Button>
          )}
          {failure ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {failure}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** A value in a code box, with a copy button when it is the real one (a masked URL copies nothing useful). */
function CopyLine({ label, value, canCopy }: { label: string; value: string; canCopy: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <p className="text-xs font-medium text-zinc-600">{label}</p>
      <div className="mt-1 flex flex-wrap items-start gap-2">
        <code className="min-w-0 flex-1 rounded bg-zinc-100 px-2 py-1.5 font-mono text-xs break-all text-zinc-900">
          {value}
        </code>
        {canCopy ? (
          <Button
            size="sm"
            onClick={async () => {
              await navigator.clipboard.writeText(value).then(
                () => setCopied(true),
                () => setCopied(false),
              );
            }}
          >
            {copied ? 'Copied' : 'Copy'}
            <span className="sr-only"> {label.toLowerCase()}</span>
          </Button>
        ) : null}
      </div>
      <p role="status" className="sr-only">
        {copied ? `${label} copied to the clipboard.` : ''}
      </p>
    </div>
  );
}
