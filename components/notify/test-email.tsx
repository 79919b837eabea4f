'use client';

import { useState } from 'react';
import type { MemberView } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { RECIPIENT_LISTS } from '@/lib/notify/kinds';
import { emailLines, type SettingsDraft } from './settings-draft';
import { TestStatus, useTestSends } from './test-send';

/**
 * "Send a test email" to one of the form's addresses: the organization's members and every address
 * typed in the lists, saved or not, through POST /v1/notifications/test as the webhook rows' test.
 * A typed line that is not an address is offered too: the API's refusal says why.
 */
export function TestEmail({ draft, members }: { draft: SettingsDraft; members: MemberView[] | undefined }) {
  const { tests, run } = useTestSends<string>();
  const options = addressOptions(draft, members ?? []);
  const [chosen, setChosen] = useState('');
  const address = options.some((o) => o.address === chosen) ? chosen : (options[0]?.address ?? '');

  return (
    <fieldset className="space-y-3 rounded-lg border border-zinc-200 px-4 pt-2 pb-4">
      <legend className="px-1 text-sm font-semibold text-zinc-900">Send a test email</legend>
      {options.length === 0 ? (
        <p className="text-xs text-zinc-600">Tick a member or type an address above to send it a test.</p>
      ) : (
        <div className="flex flex-wrap items-end gap-3">
          <SelectField
            label="Test address"
            hint="A member, or an address typed above (saved or not)."
            value={address}
            onChange={(e) => setChosen(e.target.value)}
            className="min-w-0 grow sm:max-w-md"
          >
            {options.map((o) => (
              <option key={o.address} value={o.address}>
                {o.label}
              </option>
            ))}
          </SelectField>
          <Button
            size="sm"
            pending={tests[address]?.state === 'sending'}
            onClick={() => void run(address, { email: address })}
          >
            Send test email
          </Button>
        </div>
      )}
      {address ? (
        <TestStatus test={tests[address]} delivered="Test delivered: the mail service accepted it." />
      ) : null}
    </fieldset>
  );
}

/** Members first (by name and address), then typed addresses not already listed, in order. */
function addressOptions(draft: SettingsDraft, members: MemberView[]) {
  const seen = new Set<string>();
  const options: { address: string; label: string }[] = [];
  const add = (address: string, label: string) => {
    const key = address.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    options.push({ address, label });
  };
  for (const m of members) add(m.email, m.name ? `${m.name} (${m.email})` : m.email);
  for (const list of RECIPIENT_LISTS)
    for (const line of emailLines(draft.recipients[list].emails)) add(line, line);
  return options;
}
