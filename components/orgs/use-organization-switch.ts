'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useState } from 'react';
import { failureMessage } from '@/components/api/client';
import { authClient, unwrap } from '@/components/auth/auth-client';

/**
 * Making another organization the session's active one (every /v1 call is scoped to it), then
 * opening its sites list: what the header's switcher, the organization picker and the account page
 * all do. `pendingId` is the organization being switched to; `error` what went wrong, to show.
 */
export function useOrganizationSwitch(failure = 'Could not switch organization.') {
  const router = useRouter();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const switchTo = useCallback(
    async (organizationId: string, options: { replace?: boolean } = {}): Promise<boolean> => {
      setPendingId(organizationId);
      setError(null);
      try {
        await unwrap(authClient.organization.setActive({ organizationId }));
        // The list says which organization it is now, where the focus lands (the pressed switch
        // is gone with the page).
        if (options.replace) router.replace('/sites?switched=1');
        else router.push('/sites?switched=1');
        router.refresh();
        return true;
      } catch (e) {
        setError(failureMessage(e, failure));
        return false;
      } finally {
        setPendingId(null);
      }
    },
    [router, failure],
  );
  return { pendingId, error, switchTo };
}
