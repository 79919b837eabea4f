'use client';

import { useMemo, useState } from 'react';
import { FindingCard } from '@/components/sites/report-parts';
import { ExternalLink } from '@/components/ui/external-link';
import { SelectField, TextField } from '@/components/ui/field';
import { Badge, EmptyState } from '@/components/ui/surface';
import { formatNumber } from '@/lib/format';
import {
  filterRuleGroups,
  IMPACTS,
  RULE_SORTS,
  type RuleFilter,
  type RuleGroup,
  type RuleSort,
  sortRuleGroups,
} from './rule-groups';
import { SuppressButton } from './suppress-form';

export const impactTone = {
  critical: 'danger',
  serious: 'danger',
  moderate: 'warning',
  minor: 'neutral',
} as const;

/** What a finding's actions need: where to write, whether the caller may, and what to reload. */
export interface FindingActions {
  siteId: string;
  canManage: boolean;
  /**
   * Reloads the report, then says `message` in the page's status line; `focus` moves the focus
   * there too, for an action whose control is gone with its result (a suppressed finding, an undone
   * suppression's row), so the focus does not drop to the page's body (useAnnouncer).
   */
  onChanged: (message: string, options?: { focus?: boolean }) => Promise<void>;
}

/**
 * A list of rule groups (violations, or "needs review" on its own), sortable and filterable by
 * impact, WCAG level and text. Each card shows the rule, its criterion and gain, and behind a
 * disclosure the pages with their example nodes.
 */
export function RuleList({
  groups,
  kind,
  actions,
  scanned,
}: {
  groups: RuleGroup[];
  kind: 'violation' | 'incomplete';
  actions: FindingActions;
  /** Whether the run checked any page: an empty list means "all passed" only then. */
  scanned: boolean;
}) {
  const [sort, setSort] = useState<RuleSort>(kind === 'violation' ? 'gain' : 'impact');
  const [filter, setFilter] = useState<RuleFilter>({ impact: 'all', level: 'all', text: '' });
  const shown = useMemo(() => sortRuleGroups(filterRuleGroups(groups, filter), sort), [groups, filter, sort]);
  const noun = kind === 'violation' ? 'rule failing' : 'rule needing review';
  const nouns = kind === 'violation' ? 'rules failing' : 'rules needing review';
  const filtered = filter.impact !== 'all' || filter.level !== 'all' || filter.text.trim() !== '';

  if (groups.length === 0 && !scanned) {
    return (
      <EmptyState
        title="Nothing to list"
        description="The latest scan checked no page, so it found nothing either way."
      />
    );
  }
  if (groups.length === 0) {
    return kind === 'violation' ? (
      <EmptyState
        title="No accessibility violations"
        description="Every scanned page passed every automated check (after suppressions). The criteria axe cannot test are listed under Coverage, to check by hand."
      />
    ) : (
      <EmptyState title="Nothing needs review" description="axe could decide every check on every page." />
    );
  }

  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          label="Filter"
          type="search"
          placeholder="Rule, criterion or page"
          value={filter.text}
          onChange={(e) => setFilter({ ...filter, text: e.target.value })}
        />
        <SelectField
          label="Impact"
          value={filter.impact}
          onChange={(e) => setFilter({ ...filter, impact: e.target.value as RuleFilter['impact'] })}
        >
          <option value="all">All impacts</option>
          {IMPACTS.map((impact) => (
            <option key={impact} value={impact}>
              {impact}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="WCAG level"
          value={filter.level}
          onChange={(e) => setFilter({ ...filter, level: e.target.value as RuleFilter['level'] })}
        >
          <option value="all">All levels</option>
          <option value="A">A</option>
          <option value="AA">AA</option>
          <option value="AAA">AAA</option>
          <option value="best-practice">Best practice</option>
        </SelectField>
        <SelectField label="Sort by" value={sort} onChange={(e) => setSort(e.target.value as RuleSort)}>
          {(Object.keys(RULE_SORTS) as RuleSort[])
            .filter((key) => kind === 'violation' || key !== 'gain')
            .map((key) => (
              <option key={key} value={key}>
                {RULE_SORTS[key]}
              </option>
            ))}
        </SelectField>
      </div>
      <p role="status" className="text-sm text-zinc-700">
        {formatNumber(shown.length)} {shown.length === 1 ? noun : nouns}
        {filtered ? ` of ${formatNumber(groups.length)}` : ''}.
      </p>
      {shown.length === 0 ? (
        <EmptyState
          title="No rule matches these filters"
          description="Clear the filter or pick another level."
        />
      ) : (
        <ul className="space-y-4">
          {shown.map((group) => (
            <RuleCard key={group.rule} group={group} actions={actions} />
          ))}
        </ul>
      )}
    </div>
  );
}

function RuleCard({ group, actions }: { group: RuleGroup; actions: FindingActions }) {
  return (
    <FindingCard
      pageCount={group.pages.length}
      defaultOpen={false}
      summary={`${group.pages.length === 1 ? '1 page' : `${formatNumber(group.pages.length)} pages`}, example elements`}
      header={
        <>
          <div className="flex flex-wrap items-center gap-2">
            {group.impact ? <Badge tone={impactTone[group.impact]}>{group.impact}</Badge> : null}
            <Badge tone="info">
              {group.level ? `WCAG ${group.sc ?? ''} ${group.level}`.replace('  ', ' ') : 'Best practice'}
            </Badge>
            <span className="text-xs text-zinc-600">
              {formatNumber(group.pages.length)} {group.pages.length === 1 ? 'page' : 'pages'},{' '}
              {formatNumber(group.elements)} {group.elements === 1 ? 'element' : 'elements'}
            </span>
            {group.type === 'violation' && group.gain > 0 ? (
              <span className="text-xs font-medium text-green-800">
                +{formatGain(group.gain)} points if fixed
              </span>
            ) : null}
          </div>
          <div className="mt-2 flex flex-wrap items-start justify-between gap-2">
            {/* basis-64, not the title's full width: a long title wraps beside "Suppress…" rather than
                pushing it onto a line of its own; below 16rem plus the button the row still wraps. */}
            <div className="min-w-0 flex-1 basis-64">
              <h4 className="text-sm font-semibold text-zinc-900">{group.description}</h4>
              <p className="mt-1 font-mono text-xs text-zinc-600">{group.rule}</p>
            </div>
            {actions.canManage ? (
              <SuppressButton
                siteId={actions.siteId}
                target={{ rule: group.rule }}
                label={`Suppress ${group.rule}`}
                onSuppressed={actions.onChanged}
              />
            ) : null}
          </div>
          <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <ExternalLink href={group.helpUrl} className="text-accent-700 hover:underline">
              How to fix ({group.rule})
            </ExternalLink>
            {group.w3cUrl ? (
              <ExternalLink href={group.w3cUrl} className="text-accent-700 hover:underline">
                Understanding {group.sc ?? 'the criterion'}
              </ExternalLink>
            ) : null}
          </p>
        </>
      }
    >
      <ul className="space-y-4">
        {group.pages.map(({ finding, nodes }) => (
          <li key={finding.id} className="min-w-0">
            <p className="text-sm font-medium text-zinc-900">
              <ExternalLink href={finding.page_url} className="break-all text-accent-700 hover:underline">
                {finding.page_url}
              </ExternalLink>{' '}
              <span className="font-normal text-zinc-600">
                ({formatNumber(finding.count)} {finding.count === 1 ? 'element' : 'elements'}
                {finding.count > nodes.length ? `, ${nodes.length} shown` : ''})
              </span>
            </p>
            {nodes.length > 0 ? (
              <ul
                aria-label={`Example elements on ${finding.page_url}`}
                className="mt-2 divide-y divide-zinc-200 rounded-md border border-zinc-200 bg-white"
              >
                {nodes.map((node) => (
                  <li key={node.selector} className="min-w-0 px-3 py-2.5">
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <code className="min-w-0 font-mono text-xs break-all text-zinc-900">
                        {node.selector}
                      </code>
                      {actions.canManage ? (
                        <SuppressButton
                          siteId={actions.siteId}
                          target={{ rule: group.rule, selector: node.selector, pageUrl: finding.page_url }}
                          label={`Suppress ${group.rule} at ${node.selector} on ${finding.page_url}`}
                          onSuppressed={actions.onChanged}
                        />
                      ) : null}
                    </div>
                    {node.snippet ? (
                      <pre className="mt-1.5 rounded bg-zinc-100 p-2 font-mono text-xs break-all whitespace-pre-wrap text-zinc-800">
                        {node.snippet}
                      </pre>
                    ) : null}
                    {node.summary ? (
                      <p className="mt-1.5 text-xs whitespace-pre-line text-zinc-700">{node.summary}</p>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-xs text-zinc-600">No example element was kept for this page.</p>
            )}
          </li>
        ))}
      </ul>
    </FindingCard>
  );
}

export const formatGain = (gain: number) =>
  (gain >= 10 ? Math.round(gain) : Math.round(gain * 10) / 10).toString();
