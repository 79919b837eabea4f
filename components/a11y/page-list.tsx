'use client';

import { useId, useMemo, useState } from 'react';
import type { A11yReport } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { TextField } from '@/components/ui/field';
import { Badge, EmptyState } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { impactTone } from './rule-list';

const PAGE_SIZE = 25;

/**
 * Scanned pages worst first (the report's byPage order), each opening to its own findings:
 * violations first, then what needs review, never mixed.
 */
export function PageList({ report }: { report: A11yReport }) {
  const [text, setText] = useState('');
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [openUrl, setOpenUrl] = useState<string | null>(null);
  const pages = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return needle ? report.byPage.filter((p) => p.url.toLowerCase().includes(needle)) : report.byPage;
  }, [report.byPage, text]);

  if (report.byPage.length === 0) {
    return (
      <div className="space-y-4">
        <EmptyState title="No page was scanned" description="The latest run could not check any page." />
        <NotScannedList pages={report.notScanned} />
      </div>
    );
  }
  const shown = pages.slice(0, limit);
  return (
    <div className="space-y-4">
      <NotScannedList pages={report.notScanned} />
      <TextField
        label="Filter pages"
        type="search"
        placeholder="Part of a URL"
        value={text}
        onChange={(e) => setText(e.target.value)}
        className="max-w-sm"
      />
      <p role="status" className="text-sm text-zinc-700">
        {formatNumber(pages.length)} {pages.length === 1 ? 'page' : 'pages'}, worst first.
      </p>
      <Table caption="Scanned pages, worst first">
        <thead>
          <tr>
            <Th>Page</Th>
            <Th className="text-right">Score</Th>
            <Th className="text-right">Violations</Th>
            <Th className="text-right">Needs review</Th>
          </tr>
        </thead>
        <tbody>
          {shown.map((page) => (
            <PageRow
              key={page.url}
              page={page}
              report={report}
              open={openUrl === page.url}
              onToggle={() => setOpenUrl(openUrl === page.url ? null : page.url)}
            />
          ))}
        </tbody>
      </Table>
      {pages.length > shown.length ? (
        <Button onClick={() => setLimit(limit + PAGE_SIZE)}>
          Show {formatNumber(Math.min(PAGE_SIZE, pages.length - shown.length))} more pages
        </Button>
      ) : null}
    </div>
  );
}

function PageRow({
  page,
  report,
  open,
  onToggle,
}: {
  page: A11yReport['byPage'][number];
  report: A11yReport;
  open: boolean;
  onToggle: () => void;
}) {
  const panelId = useId();
  const findings = open ? report.issues.filter((f) => f.page_url === page.url) : [];
  const violations = findings.filter((f) => f.type === 'violation');
  const review = findings.filter((f) => f.type === 'incomplete');
  return (
    <>
      <tr>
        <Td className="min-w-56 break-all">
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={open}
            aria-controls={open ? panelId : undefined}
            onClick={onToggle}
            className="h-auto min-h-8 px-1 text-left whitespace-normal break-all"
            disabled={page.violations + page.needsReview === 0}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
            {page.url}
          </Button>
        </Td>
        <Td className="text-right tabular-nums">{page.score}</Td>
        <Td className="text-right tabular-nums">{formatNumber(page.violations)}</Td>
        <Td className="text-right tabular-nums">{formatNumber(page.needsReview)}</Td>
      </tr>
      {open ? (
        <tr>
          <td id={panelId} colSpan={4} className="border-b border-zinc-100 bg-zinc-50 px-4 py-3">
            <p className="mb-2 text-sm">
              <ExternalLink href={page.url} className="text-accent-700 hover:underline">
                Open the page
              </ExternalLink>
            </p>
            <FindingSummaryList title="Violations" findings={violations} report={report} />
            <FindingSummaryList title="Needs review" findings={review} report={report} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function FindingSummaryList({
  title,
  findings,
  report,
}: {
  title: string;
  findings: A11yReport['issues'];
  report: A11yReport;
}) {
  if (findings.length === 0) return null;
  return (
    <div className="mt-2">
      <p className="text-xs font-semibold tracking-wide text-zinc-700 uppercase">{title}</p>
      <ul className="mt-1 space-y-1.5">
        {findings.map((f) => (
          <li key={f.id} className="flex flex-wrap items-center gap-2 text-sm">
            {f.impact ? <Badge tone={impactTone[f.impact]}>{f.impact}</Badge> : null}
            <span className="text-zinc-900">{report.descriptions[f.rule] ?? f.help}</span>
            <span className="font-mono text-xs text-zinc-600">
              {f.rule}
              {f.sc ? ` · ${f.sc}` : ''} · {formatNumber(f.count)} {f.count === 1 ? 'element' : 'elements'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Pages the run could not check (a hang, a crash, a refused or off-site redirect), with the reason:
 * they are in no score and no verdict, so they are named rather than left out silently.
 */
function NotScannedList({ pages }: { pages: A11yReport['notScanned'] }) {
  if (pages.length === 0) return null;
  return (
    <Table
      showCaption
      caption={`Not scanned (${formatNumber(pages.length)}): not in the score or the verdict`}
    >
      <thead>
        <tr>
          <Th>Page</Th>
          <Th>Why</Th>
        </tr>
      </thead>
      <tbody>
        {pages.map((page) => (
          <tr key={page.url}>
            <Td className="min-w-40 break-all">{page.url}</Td>
            <Td className="min-w-40">{page.reason}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
