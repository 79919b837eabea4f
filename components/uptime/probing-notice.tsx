import Link from 'next/link';
import type { MonitorLive } from '@/components/api/types';
import { Alert } from '@/components/ui/surface';
import { usePlaces } from './places';

type Probing = MonitorLive['probing'];

/**
 * Why a monitor is not probed, as the monitor page says it: the first reason (`pausedBy`) as the
 * notice, and each other reason that holds it (`alsoPausedBy`) as a sentence of it, since
 * resuming a paused monitor whose site has the app off, or that is past the allowance, does not
 * make it probe. Nothing while it is probed.
 */
export function ProbingNotice({
  probing,
  siteId,
  canManage,
  monitorsPerSite,
}: {
  probing: Probing;
  siteId: string;
  canManage: boolean;
  /** The pooled allowance's monitors per site (ALLOWANCE_MONITORS), which the page reads from the configuration. */
  monitorsPerSite: number;
}) {
  const { unit } = usePlaces();
  const atOnce = unit === 'region' ? 'from every region at once' : 'with all four probes at once';
  const settings = canManage ? (
    <Link href={`/sites/${siteId}/settings`} className="font-medium underline">
      Turn the app on in the site settings
    </Link>
  ) : (
    'An owner or admin can turn it on in the site settings'
  );
  const billing = canManage ? (
    <Link href="/billing" className="font-medium underline">
      Open billing
    </Link>
  ) : null;
  const also = new Set(probing.alsoPausedBy);
  const alsoApp = also.has('app') ? (
    <> The site&apos;s Uptime app is also off, so resumed it stays stopped until the app is on. {settings}.</>
  ) : null;
  const alsoHeld = also.has('allowance') ? (
    <>
      {' '}
      It is also past the monitor allowance, so it stays held until overage is turned on, an older monitor is
      deleted or a site is added. {billing}
    </>
  ) : null;

  switch (probing.pausedBy) {
    case 'monitor':
      return (
        <Alert tone="info" title="Paused">
          No probes run and no alerts are sent while the monitor is paused; its history is kept.
          {canManage && also.size === 0 ? ` Resume it to probe again ${atOnce}.` : ''}
          {alsoApp}
          {alsoHeld}
        </Alert>
      );
    case 'app':
      return (
        <Alert tone="warning" title="Not probing: the Uptime app is off for this site">
          Monitors and their history are kept. {settings} to resume probing.
          {alsoHeld}
        </Alert>
      );
    case 'allowance':
      return (
        <Alert tone="warning" title="Not probing: past the monitor allowance">
          The organization has more monitors than its allowance ({monitorsPerSite} per site) and overage
          billing is off, so its newest monitors are held; this is one of them. It probes again, {atOnce},
          when overage is turned on, an older monitor is deleted or a site is added. Its history is kept.{' '}
          {billing}
        </Alert>
      );
    default:
      return null;
  }
}

/** What Resume did, given the probing state it was pressed in (a paused monitor's). */
export function resumedMessage(before: Probing, unit = 'region'): string {
  if (before.alsoPausedBy.includes('app'))
    return 'Monitor resumed; it probes again once the Uptime app is on.';
  if (before.alsoPausedBy.includes('allowance')) {
    return 'Monitor resumed; it stays held past the monitor allowance until overage is on or a monitor slot frees up.';
  }
  return unit === 'region'
    ? 'Monitor resumed: every region probes it now.'
    : 'Monitor resumed: all four probes check it now.';
}
