import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageScan } from '@/lib/a11y/engine/scan';
import { storePageScans } from '@/lib/a11y/engine/store';
import { finalizePass } from '@/lib/a11y/runs/finalize';
import type { Principal } from '@/lib/auth/principal';
import { a11yScoreTrend } from '@/lib/dashboard/a11y';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * History keeps its scores (issue 24 item 10b): a suppression applies to the latest report and to
 * what is computed from then on, while a run's score in History stays the one it finished with.
 * The runs are finalized by the render pass's own finalization, as a real scan ends.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let siteId: string;

const ROOT = 'https://history.example/';

/** image-alt (critical, weight 10) fails beside two passing serious rules (7 each): 14/24 = 58. */
const SCAN: PageScan[] = [
  {
    url: ROOT,
    status: 'scanned',
    findings: [
      {
        rule: 'image-alt',
        type: 'violation',
        impact: 'critical',
        help: 'Images must have alternative text',
        helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
        count: 1,
        nodes: [{ selector: 'img.hero' }],
      },
    ],
    passes: ['html-has-lang', 'document-title'],
    inapplicable: [],
  },
];

/** A standalone scan whose pages are stored, finalized the way the pass ends one. */
async function scannedRun(startedAt: number): Promise<string> {
  const [run] = await db
    .insert(runs)
    .values({
      site_id: siteId,
      tenant_id: owner.tenantId,
      started_at: startedAt,
      state: 'running',
      kind: 'a11y',
      a11y_phase: 'rendering',
    })
    .returning({ id: runs.id });
  await storePageScans(db, { tenantId: owner.tenantId, runId: run!.id }, SCAN);
  const finished = await finalizePass(db, run!.id, startedAt + 60_000);
  expect(finished?.finalizedNow).toBe(true);
  return run!.id;
}

type RunRow = { id: string; a11y_score: number | null; a11y_scan_score: number | null };
const history = async (): Promise<RunRow[]> => {
  const res = await v1({ token: owner.token }).GET('/v1/sites/{id}/runs', {
    params: { path: { id: siteId } },
  });
  expect(res.status).toBe(200);
  return res.body.runs;
};
const latestScore = async () =>
  (await v1({ token: owner.token }).GET('/v1/sites/{id}/a11y-report', { params: { path: { id: siteId } } }))
    .body.summary.score;
const principal = (): Principal => ({
  tenantId: owner.tenantId,
  via: 'session',
  role: 'owner',
  siteIds: 'all',
  canCrawl: true,
});

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'a11y-history@example.com');
  siteId = await insertSite(db, owner.tenantId, 'history.example');
});
afterAll(async () => teardown());

describe('accessibility scores in History', () => {
  it('keep what each run finished with after a suppression; the latest report follows it', async () => {
    const first = await scannedRun(Date.now() - 86_400_000);
    expect(await history()).toEqual([expect.objectContaining({ id: first, a11y_scan_score: 58 })]);
    expect(await latestScore()).toBe(58);

    const suppressed = await v1({ token: owner.token }).POST('/v1/sites/{id}/a11y-suppressions', {
      params: { path: { id: siteId } },
      body: { rule: 'image-alt', reason: 'decorative hero, alt handled by the caption' },
    });
    expect(suppressed.status).toBe(201);

    // The latest report and the latest run's stored score (the spec's) follow the suppression...
    expect(await latestScore()).toBe(100);
    // ...while History still shows the score the run finished with.
    expect(await history()).toEqual([
      expect.objectContaining({ id: first, a11y_scan_score: 58, a11y_score: 100 }),
    ]);

    // A scan after the suppression finishes with it applied; the first run's score is unchanged.
    const second = await scannedRun(Date.now());
    expect(await history()).toEqual([
      expect.objectContaining({ id: second, a11y_scan_score: 100, a11y_score: 100 }),
      expect.objectContaining({ id: first, a11y_scan_score: 58 }),
    ]);
    expect(await latestScore()).toBe(100);
    // The Accessibility tab's trend reads the same history.
    expect((await a11yScoreTrend(db, principal(), siteId)).map((p) => [p.runId, p.score])).toEqual([
      [first, 58],
      [second, 100],
    ]);
  });
});
