/**
 * Accessibility report latency on a stored 1,000-page run: GET /v1/sites/{id}/a11y-report's service
 * (every page's passes, ~4,000 findings, three suppressions, a previous run for the resolved count).
 *
 *   npx tsx tests/bench/a11y-report.bench.ts                        # PGlite in memory
 *   BENCH_DATABASE_URL=postgres://... npx tsx tests/bench/a11y-report.bench.ts   # a Postgres server
 *
 * Prints the median and the slowest of 7 timed reports after one untimed warm-up. A figure, not an
 * assertion.
 */

import type { PageScan } from '@/lib/a11y/engine/scan';
import { storePageScans } from '@/lib/a11y/engine/store';
import { getA11yReport } from '@/lib/a11y/report/report';
import type { Principal } from '@/lib/auth/principal';
import { closeDb, getDbHandle } from '@/lib/db/client';
import { a11ySuppressions, organizations, runs } from '@/lib/db/schema';
import { insertSite } from '../support/fixtures';
import { machineLine } from './machine';

const PAGES = 1000;
const RUNS = 7;

if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
else process.env.PGLITE_DIR = 'memory://';

function scans(variant: number): PageScan[] {
  return Array.from({ length: PAGES }, (_, i): PageScan => {
    const url = `https://bench.example/page/${i}`;
    if (i % 100 === 99) return { url, status: 'not-scanned', reason: 'did not finish loading within 30 s' };
    const node = (selector: string) => ({ selector, snippet: `<div class="${selector}">` });
    return {
      url,
      status: 'scanned',
      findings: [
        {
          rule: 'image-alt',
          type: 'violation',
          impact: 'critical',
          help: 'alt',
          helpUrl: 'https://x/',
          count: 3,
          nodes: [node('img.a'), node('img.b'), node(`img.p${i}`)],
        },
        {
          rule: 'color-contrast',
          type: 'violation',
          impact: 'serious',
          help: 'contrast',
          helpUrl: 'https://x/',
          count: 5,
          nodes: [node('p.faint'), node('a.muted')],
        },
        {
          rule: 'region',
          type: 'violation',
          impact: 'moderate',
          help: 'region',
          helpUrl: 'https://x/',
          count: 1,
          nodes: [node('div.ad')],
        },
        ...(i % 2 === variant
          ? [
              {
                rule: 'link-name',
                type: 'incomplete' as const,
                impact: 'serious' as const,
                help: 'link',
                helpUrl: 'https://x/',
                count: 1,
                nodes: [node('a.icon')],
              },
            ]
          : []),
      ],
      passes: [
        'html-has-lang',
        'document-title',
        'label',
        'button-name',
        'list',
        'listitem',
        'heading-order',
      ],
      inapplicable: ['video-caption'],
    };
  });
}

const { db } = await getDbHandle();
const tenantId = 'bench-org';
await db.insert(organizations).values({ id: tenantId, name: 'bench', slug: 'bench' });
const siteId = await insertSite(db, tenantId, 'bench.example');
for (const [variant, startedAt] of [
  [0, Date.now() - 86_400_000],
  [1, Date.now()],
] as const) {
  const [run] = await db
    .insert(runs)
    .values({ site_id: siteId, tenant_id: tenantId, started_at: startedAt, state: 'completed', kind: 'a11y' })
    .returning({ id: runs.id });
  await storePageScans(db, { tenantId, runId: run!.id }, scans(variant));
}
await db.insert(a11ySuppressions).values([
  { tenant_id: tenantId, site_id: siteId, rule: 'region', created_at: Date.now() },
  { tenant_id: tenantId, site_id: siteId, rule: 'image-alt', selector: 'img.a', created_at: Date.now() },
  {
    tenant_id: tenantId,
    site_id: siteId,
    rule: 'color-contrast',
    selector: 'p.faint',
    page_url: 'https://bench.example/page/7',
    created_at: Date.now(),
  },
]);

const principal: Principal = { tenantId, via: 'key', keyId: 'bench', siteIds: 'all', canCrawl: true };
const first = await getA11yReport(db, principal, siteId);
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  await getA11yReport(db, principal, siteId);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
console.log(machineLine());
console.log(
  `a11y-report, ${PAGES} pages (${first.summary.pagesScanned} scanned, ${first.issues.length} issues shown), ` +
    `${process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite'}: median ${times[RUNS >> 1]!.toFixed(0)} ms, ` +
    `slowest ${times[RUNS - 1]!.toFixed(0)} ms (score ${first.summary.score})`,
);
await closeDb();
