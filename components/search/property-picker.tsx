'use client';

import { type FormEvent, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { SearchConnection, SearchProperties } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { Button } from '@/components/ui/button';
import { FormError, SelectField } from '@/components/ui/field';
import { LoadError, Loading, Skeleton } from '@/components/ui/surface';

const PERMISSION_WORDS: Record<SearchProperties['properties'][number]['permissionLevel'], string> = {
  siteOwner: 'owner',
  siteFullUser: 'full user',
  siteRestrictedUser: 'restricted user',
  siteUnverifiedUser: 'unverified',
};

/**
 * The connected account's properties, fresh from Google (GET /search/properties), to choose the one
 * this site reports; saving (POST /search/property) arms the first sync.
 */
export function PropertyPicker({ siteId, onSaved }: { siteId: string; onSaved: (property: string) => void }) {
  const list = useApi<SearchProperties>(`/v1/sites/${siteId}/search/properties`);
  const [chosen, setChosen] = useState('');
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState('');

  if (list.error) {
    return (
      <LoadError title="Could not list the account’s properties" error={list.error} onRetry={list.mutate} />
    );
  }
  if (!list.data) {
    return (
      <Loading label="Loading the account’s Search Console properties">
        <Skeleton className="h-16 w-full" />
      </Loading>
    );
  }
  const { properties } = list.data;
  if (properties.length === 0) {
    return (
      <div className="space-y-3 text-sm text-zinc-700">
        <p>
          This Google account has no verified Search Console property. Add and verify the site in Search
          Console, then list the properties again, or disconnect and connect another account.
        </p>
        <Button size="sm" onClick={() => void list.mutate()} pending={list.isValidating}>
          List the properties again
        </Button>
      </div>
    );
  }
  const value = chosen || (properties[0]?.siteUrl ?? '');

  async function save(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setProblem('');
    try {
      const saved = await requestJson<SearchConnection>(`/v1/sites/${siteId}/search/property`, {
        body: { property: value },
      });
      onSaved(saved.property ?? value);
    } catch (error) {
      setPending(false);
      setProblem(failureMessage(error, 'Could not save the property.'));
    }
  }

  return (
    <form onSubmit={save} className="space-y-4">
      <SelectField
        label="Property"
        hint="Only properties this account can read are listed."
        value={value}
        onChange={(e) => setChosen(e.target.value)}
        className="max-w-xl"
      >
        {properties.map((p) => (
          <option key={p.siteUrl} value={p.siteUrl}>
            {p.siteUrl} ({PERMISSION_WORDS[p.permissionLevel]})
          </option>
        ))}
      </SelectField>
      <FormError>{problem ? `The property was not saved: ${problem}` : ''}</FormError>
      <Button type="submit" variant="primary" pending={pending}>
        Save property
      </Button>
    </form>
  );
}
