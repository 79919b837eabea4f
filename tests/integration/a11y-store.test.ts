import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageScan } from '@/lib/a11y/engine/scan';
import { storePageScans } from '@/lib/a11y/engine/store';
import type { Db } from '@/lib/db/client';
import { a11yFindings, a11yPages, runs } from '@/lib/db/schema';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

let db: Db;
let teardown: () => Promise<void>;
let TENANT: string;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  TENANT = (await signInOwner(db, 'a11y-store@example.com')).tenantId;
});
afterAll(async () => teardown());

async function newRun(): Promise<string> {
  const siteId = await insertSite(db, TENANT, `store-${Math.random().toString(36).slice(2)}.example`);
  const [run] = await db
    .insert(runs)
    .values({ site_id: siteId, tenant_id: TENANT, started_at: Date.now(), state: 'running', kind: 'a11y' })
    .returning({ id: runs.id });
  return run!.id;
}

// Hand-made render results: data in the render pass's shape, not a stand-in for the renderer.
const SCANS: PageScan[] = [
  {
    url: 'https://s.example/',
    status: 'scanned',
    findings: [
      {
        rule: 'image-alt',
        type: 'violation',
        impact: 'critical',
        help: 'Images must have alternative text',
        helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
        count: 2,
        nodes: [{ selector: 'img.hero' }, { selector: 'img.logo', snippet: '<img class="logo">' }],
      },
      {
        rule: 'region',
        type: 'violation',
        impact: 'moderate',
        help: 'All page content should be contained by landmarks',
        helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/region',
        count: 1,
        nodes: [{ selector: 'div.x' }],
      },
    ],
    passes: ['html-has-lang', 'document-title'],
    inapplicable: ['video-caption'],
  },
  { url: 'https://s.example/slow', status: 'not-scanned', reason: 'did not finish loading within 30 s' },
];

describe('storePageScans', () => {
  it('writes a page row per scan and findings with the rule metadata', async () => {
    const runId = await newRun();
    const result = await storePageScans(db, { tenantId: TENANT, runId }, SCANS);
    expect(result).toEqual({ pagesStored: 2, pagesScanned: 1, findingsStored: 2 });

    const pages = await db
      .select()
      .from(a11yPages)
      .where(eq(a11yPages.run_id, runId))
      .orderBy(asc(a11yPages.page_url));
    expect(pages.map((p) => [p.page_url, p.status, p.reason, p.passes, p.inapplicable, p.tenant_id])).toEqual(
      [
        [
          'https://s.example/',
          'scanned',
          null,
          ['html-has-lang', 'document-title'],
          ['video-caption'],
          TENANT,
        ],
        ['https://s.example/slow', 'not-scanned', 'did not finish loading within 30 s', [], [], TENANT],
      ],
    );

    const [alt] = await db
      .select()
      .from(a11yFindings)
      .where(and(eq(a11yFindings.run_id, runId), eq(a11yFindings.rule, 'image-alt')));
    expect(alt).toMatchObject({
      tenant_id: TENANT,
      page_url: 'https://s.example/',
      type: 'violation',
      impact: 'critical',
      count: 2,
      wcag: '1.1.1',
      sc: '1.1.1',
      principle: 'Perceivable',
      standards: { wcagLevel: 'A', en301549: true, section508: true },
    });
    expect(alt!.nodes).toEqual(SCANS[0]!.status === 'scanned' ? SCANS[0]!.findings[0]!.nodes : null);

    // `region` is a best-practice rule: no criterion, no level, no standard.
    const [region] = await db
      .select()
      .from(a11yFindings)
      .where(and(eq(a11yFindings.run_id, runId), eq(a11yFindings.rule, 'region')));
    expect(region).toMatchObject({
      wcag: null,
      sc: null,
      principle: null,
      standards: { wcagLevel: null, en301549: false, section508: false },
    });
  });

  it('is idempotent per (run, page): a batch stored again adds no rows', async () => {
    const runId = await newRun();
    await storePageScans(db, { tenantId: TENANT, runId }, SCANS);
    const again = await storePageScans(db, { tenantId: TENANT, runId }, SCANS);
    expect(again).toEqual({ pagesStored: 0, pagesScanned: 0, findingsStored: 0 });
    const pages = await db.select().from(a11yPages).where(eq(a11yPages.run_id, runId));
    const findings = await db.select().from(a11yFindings).where(eq(a11yFindings.run_id, runId));
    expect(pages).toHaveLength(2);
    expect(findings).toHaveLength(2);

    // A later batch with one page already stored and one new: only the new one is written.
    const more = await storePageScans(db, { tenantId: TENANT, runId }, [
      SCANS[0]!,
      {
        url: 'https://s.example/new',
        status: 'scanned',
        findings: [],
        passes: ['image-alt'],
        inapplicable: [],
      },
    ]);
    expect(more).toEqual({ pagesStored: 1, pagesScanned: 1, findingsStored: 0 });
  });

  it("turns the pass's pending rows into results once", async () => {
    const runId = await newRun();
    await db.insert(a11yPages).values(
      SCANS.map((scan) => ({
        run_id: runId,
        tenant_id: TENANT,
        page_url: scan.url,
        status: 'pending' as const,
        created_at: Date.now(),
      })),
    );
    expect(await storePageScans(db, { tenantId: TENANT, runId }, SCANS)).toEqual({
      pagesStored: 2,
      pagesScanned: 1,
      findingsStored: 2,
    });
    const slow = {
      url: 'https://s.example/slow',
      status: 'scanned' as const,
      findings: [],
      passes: [],
      inapplicable: [],
    };
    expect(await storePageScans(db, { tenantId: TENANT, runId }, [slow])).toEqual({
      pagesStored: 0,
      pagesScanned: 0,
      findingsStored: 0,
    });
    const pages = await db
      .select()
      .from(a11yPages)
      .where(eq(a11yPages.run_id, runId))
      .orderBy(asc(a11yPages.page_url));
    expect(pages.map((p) => [p.status, p.passes])).toEqual([
      ['scanned', ['html-has-lang', 'document-title']],
      ['not-scanned', []],
    ]);
    expect(await db.select().from(a11yFindings).where(eq(a11yFindings.run_id, runId))).toHaveLength(2);
  });
});
