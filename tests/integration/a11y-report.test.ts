import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageScan, PageScanFinding } from '@/lib/a11y/engine/scan';
import { storePageScans } from '@/lib/a11y/engine/store';
import type { Db } from '@/lib/db/client';
import { a11ySuppressions, runs } from '@/lib/db/schema';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let siteId: string;
let runId: string;

const ROOT = 'https://s.example/';
const B = 'https://s.example/b';
const C = 'https://s.example/private/c';

function finding(
  rule: string,
  impact: PageScanFinding['impact'],
  selectors: string[],
  type: PageScanFinding['type'] = 'violation',
): PageScanFinding {
  return {
    rule,
    type,
    impact,
    help: `${rule} help`,
    helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${rule}`,
    count: selectors.length,
    nodes: selectors.map((selector) => ({ selector })),
  };
}

/**
 * Weights (Lighthouse's, by axe impact): image-alt critical 10, html-has-lang and document-title
 * serious 7. Page scores: / 14/24 = 58, /b 14/24 = 58, /private/c 7/14 = 50; the site is the mean of
 * the ratios, (7/12 + 7/12 + 1/2) / 3 = 55.6 -> 56.
 */
const SCANS: PageScan[] = [
  {
    url: ROOT,
    status: 'scanned',
    findings: [finding('image-alt', 'critical', ['img.hero', 'img.logo'])],
    passes: ['html-has-lang', 'document-title'],
    inapplicable: [],
  },
  {
    url: B,
    status: 'scanned',
    findings: [
      finding('image-alt', 'critical', ['img.logo']),
      finding('color-contrast', 'serious', ['p.faint'], 'incomplete'),
    ],
    passes: ['html-has-lang', 'document-title'],
    inapplicable: [],
  },
  {
    url: C,
    status: 'scanned',
    findings: [finding('document-title', 'serious', ['html'])],
    passes: ['html-has-lang'],
    inapplicable: [],
  },
  { url: 'https://s.example/slow', status: 'not-scanned', reason: 'did not finish loading within 30 s' },
];

async function newRun(startedAt: number): Promise<string> {
  const [run] = await db
    .insert(runs)
    .values({
      site_id: siteId,
      tenant_id: owner.tenantId,
      started_at: startedAt,
      finished_at: startedAt + 1000,
      state: 'completed',
      kind: 'a11y',
    })
    .returning({ id: runs.id });
  return run!.id;
}

const report = (token = owner.token, id = siteId) =>
  v1({ token }).GET('/v1/sites/{id}/a11y-report', { params: { path: { id } } });
const suppress = (body: RequestBody<'/v1/sites/{id}/a11y-suppressions', 'post'>, token = owner.token) =>
  v1({ token }).POST('/v1/sites/{id}/a11y-suppressions', { params: { path: { id: siteId } }, body });
const unsuppress = (suppressionId: string, id = siteId, token = owner.token) =>
  v1({ token }).DELETE('/v1/sites/{id}/a11y-suppressions/{suppressionId}', {
    params: { path: { id, suppressionId } },
  });
type Criterion = { sc: string; status: string; automated: string; reading: string };
const criterion = (
  body: { coverage: { principles: { guidelines: { criteria: Criterion[] }[] }[] } },
  sc: string,
) =>
  body.coverage.principles.flatMap((p) => p.guidelines.flatMap((g) => g.criteria)).find((c) => c.sc === sc);
const storedScore = async () => (await db.select().from(runs).where(eq(runs.id, runId)))[0]?.a11y_score;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'a11y-report@example.com');
  siteId = await insertSite(db, owner.tenantId, 's.example');
  // An earlier run where / also lacked a lang attribute: fixed since, so one finding is resolved.
  const previous = await newRun(Date.now() - 86_400_000);
  await storePageScans(db, { tenantId: owner.tenantId, runId: previous }, [
    {
      url: ROOT,
      status: 'scanned',
      findings: [finding('html-has-lang', 'serious', ['html'])],
      passes: [],
      inapplicable: [],
    },
  ]);
  runId = await newRun(Date.now());
  await storePageScans(db, { tenantId: owner.tenantId, runId }, SCANS);
});
afterAll(async () => teardown());

describe('GET /v1/sites/{id}/a11y-report', () => {
  it('reports the latest run: score, pages worst first, coverage, summary, gains', async () => {
    const res = await report();
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.run.id).toBe(runId);
    expect(body.summary).toMatchObject({
      score: 56,
      critical: 2,
      serious: 1,
      moderate: 0,
      minor: 0,
      pagesScanned: 3,
      resolvedSinceLastScan: 1,
      compliance: { en301549: { rules: 2, occurrences: 4 }, section508: { rules: 2, occurrences: 4 } },
    });
    expect(body.summary.verdict.compliant).toBe(false);
    expect(body.summary.verdict.targetLevel).toBe('AA');
    expect(body.summary.byPrinciple.Operable.violations).toBe(1);
    expect(body.summary.byPrinciple.Perceivable).toMatchObject({ violations: 2, needsReview: 1 });

    expect(body.byPage).toEqual([
      { url: C, score: 50, issues: 1, violations: 1, needsReview: 0 },
      { url: ROOT, score: 58, issues: 1, violations: 1, needsReview: 0 },
      { url: B, score: 58, issues: 2, violations: 1, needsReview: 1 },
    ]);
    // image-alt: 10/24 of a third of the score on / and on /b; document-title: 7/14 of a third.
    expect(body.gainByRule).toEqual({ 'image-alt': 27.8, 'document-title': 16.7 });
    expect(body.issues).toHaveLength(4);
    expect(body.issues.find((i: { rule: string }) => i.rule === 'image-alt')).toMatchObject({
      page_url: ROOT,
      count: 2,
      sc: '1.1.1',
      standards: { wcagLevel: 'A', en301549: true, section508: true },
    });
    expect(body.w3cUrls['image-alt']).toMatch(/^https:\/\/www\.w3\.org\/WAI\/WCAG22\/Understanding\//);
    expect(typeof body.descriptions['color-contrast']).toBe('string');

    expect(body.coverage.totals).toEqual({ fail: 2, pass: 1, manual: 83, total: 86 });
    const criteria = body.coverage.principles.flatMap((p: { guidelines: { criteria: unknown[] }[] }) =>
      p.guidelines.flatMap((g) => g.criteria),
    ) as { sc: string; status: string; pages: number; rules: string[] }[];
    expect(criteria.find((c) => c.sc === '1.1.1')).toMatchObject({
      status: 'fail',
      pages: 2,
      rules: ['image-alt'],
    });
    // html-has-lang passed on every page, but 3.1.1 has rules that never ran: no automated failures.
    expect(criteria.find((c) => c.sc === '3.1.1')).toMatchObject({
      status: 'pass',
      pages: 3,
      automated: 'partial',
      reading: 'no-automated-failures',
    });
    expect(body.coverage.readings).toEqual({
      fails: 2,
      passes: 0,
      'not-applicable': 0,
      'no-automated-failures': 1,
      untested: 83,
    });
    // Needs review is not evidence either way.
    expect(criteria.find((c) => c.sc === '1.4.3')?.status).toBe('manual');
    expect(body.manualChecks).toEqual({});
    expect(body.suppressions).toEqual([]);
    // The page that hung is listed with its reason: the report never reads as complete without it.
    expect(body.notScanned).toEqual([
      { url: 'https://s.example/slow', reason: 'did not finish loading within 30 s' },
    ]);
  });

  it('is not compliant when the run could scan no page at all', async () => {
    const site = await insertSite(db, owner.tenantId, 'unscannable.example');
    const [run] = await db
      .insert(runs)
      .values({
        site_id: site,
        tenant_id: owner.tenantId,
        started_at: Date.now(),
        finished_at: Date.now(),
        state: 'completed',
        kind: 'a11y',
      })
      .returning({ id: runs.id });
    await storePageScans(db, { tenantId: owner.tenantId, runId: run!.id }, [
      { url: 'https://unscannable.example/', status: 'not-scanned', reason: 'the renderer crashed' },
    ]);
    const res = await report(owner.token, site);
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({
      score: null,
      pagesScanned: 0,
      verdict: {
        compliant: false,
        targetLevel: 'AA',
        risk: 'no page could be scanned, so conformance is unknown',
      },
    });
    expect(res.body.notScanned).toEqual([
      { url: 'https://unscannable.example/', reason: 'the renderer crashed' },
    ]);
  });

  it('is a 404 for another tenant and for a site with no stored results', async () => {
    const other = await signInOwner(db, 'a11y-other@example.com');
    expect((await report(other.token)).status).toBe(404);
    const empty = await insertSite(db, owner.tenantId, 'empty.example');
    const res = await report(owner.token, empty);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/no accessibility scan/);
  });
});

describe('suppressions', () => {
  it.each([
    // img.logo everywhere: /b's only image-alt element is accepted (100), / keeps img.hero.
    ['element everywhere', { rule: 'image-alt', selector: 'img.logo' }, 69, 2, 'fails'],
    // The whole rule: / and /b pass it; (1 + 1 + 1/2) / 3 = 83.3. 1.1.1 no longer fails, but a
    // suppressed violation is no evidence of a pass: "no automated failures", never "passes".
    ['rule site-wide', { rule: 'image-alt' }, 83, 2, 'no-automated-failures'],
    // One occurrence: img.hero on / only; / still fails image-alt through img.logo.
    ['one occurrence', { rule: 'image-alt', selector: 'img.hero', pageUrl: ROOT }, 56, 1, 'fails'],
  ])(
    '%s: the score and the stored score change, and come back on delete',
    async (_scope, scope, score, matched, reading) => {
      const body: { rule: string; selector?: string; pageUrl?: string } = scope;
      const created = await suppress({ ...body, reason: 'decorative' });
      expect(created.status).toBe(201);
      expect(created.body.suppression).toMatchObject({
        rule: 'image-alt',
        selector: body.selector ?? null,
        page_url: body.pageUrl ?? null,
        reason: 'decorative',
        created_by: owner.userId,
        site_id: siteId,
      });
      const after = await report();
      expect(after.body.summary.score).toBe(score);
      expect(after.body.suppressions).toEqual([
        expect.objectContaining({ id: created.body.suppression.id, matchedCount: matched }),
      ]);
      expect(await storedScore()).toBe(score);
      expect(criterion(after.body, '1.1.1')).toMatchObject({ automated: 'partial', reading });

      const listed = await v1({ token: owner.token }).GET('/v1/sites/{id}/a11y-suppressions', {
        params: { path: { id: siteId } },
      });
      expect(listed.body.suppressions.map((s: { id: string }) => s.id)).toEqual([
        created.body.suppression.id,
      ]);

      const removed = await unsuppress(created.body.suppression.id);
      expect(removed.status).toBe(200);
      expect((await report()).body.summary.score).toBe(56);
      expect(await storedScore()).toBe(56);
    },
  );

  it('hides suppressed elements from the issues', async () => {
    const created = await suppress({ rule: 'image-alt', selector: 'img.hero', pageUrl: ROOT });
    const issue = (await report()).body.issues.find(
      (i: { rule: string; page_url: string }) => i.rule === 'image-alt' && i.page_url === ROOT,
    );
    expect(issue.count).toBe(1);
    expect(JSON.parse(issue.nodes)).toEqual([{ selector: 'img.logo' }]);
    await unsuppress(created.body.suppression.id);
  });

  it('refuses bad bodies with a 422 naming the field, and stores nothing', async () => {
    const missing = await suppress({ selector: 'img' });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatch(/^rule/);
    const pageOnly = await suppress({ rule: 'image-alt', pageUrl: ROOT });
    expect(pageOnly.status).toBe(422);
    expect(pageOnly.body.error).toMatch(/^pageUrl.*selector/);
    const unknown = await suppress({ rule: 'no-such-rule' });
    expect(unknown.status).toBe(422);
    expect(await db.select().from(a11ySuppressions)).toEqual([]);
  });

  it("is a 404 to delete another site's suppression or an unknown id", async () => {
    const created = await suppress({ rule: 'region' });
    const otherSite = await insertSite(db, owner.tenantId, 'other.example');
    expect((await unsuppress(created.body.suppression.id, otherSite)).status).toBe(404);
    expect((await unsuppress('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await unsuppress('not-a-uuid')).status).toBe(404);
    const other = await signInOwner(db, 'a11y-thief@example.com');
    expect((await unsuppress(created.body.suppression.id, siteId, other.token)).status).toBe(404);
    expect((await unsuppress(created.body.suppression.id)).status).toBe(200);
  });
});

describe('PUT /v1/sites/{id}/a11y-manual-checks', () => {
  const put = (body: RequestBody<'/v1/sites/{id}/a11y-manual-checks', 'put'>) =>
    v1({ token: owner.token }).PUT('/v1/sites/{id}/a11y-manual-checks', {
      params: { path: { id: siteId } },
      body,
    });

  it('upserts a check, overlaid on the report without touching score or verdict', async () => {
    expect((await put({ sc: '1.4.3', status: 'verified', note: 'checked by hand' })).body).toEqual({
      ok: true,
    });
    let body = (await report()).body;
    expect(body.manualChecks['1.4.3']).toMatchObject({
      status: 'verified',
      note: 'checked by hand',
      by: owner.userId,
    });
    expect(body.summary.score).toBe(56);
    expect(body.summary.verdict.compliant).toBe(false);
    // A reviewer's verified check is what makes a criterion read as passing; its status stays.
    expect(criterion(body, '1.4.3')).toMatchObject({ status: 'manual', reading: 'passes' });

    expect((await put({ sc: '1.4.3', status: 'failed', note: null })).status).toBe(200);
    body = (await report()).body;
    expect(body.manualChecks['1.4.3']).toMatchObject({ status: 'failed', note: null });
    expect(Object.keys(body.manualChecks)).toEqual(['1.4.3']);
    expect(body.summary.score).toBe(56);
  });

  it('refuses a missing sc or an unknown status with a 422', async () => {
    const noSc = await put({ status: 'verified' });
    expect(noSc.status).toBe(422);
    expect(noSc.body.error).toMatch(/^sc/);
    const badStatus = await put({ sc: '1.1.1', status: 'done' });
    expect(badStatus.status).toBe(422);
    expect(badStatus.body.error).toMatch(/^status/);
    expect((await report()).body.manualChecks['1.1.1']).toBeUndefined();
  });
});

describe('excludePaths', () => {
  it('recomputes the stored score when they change', async () => {
    const patched = await v1({ token: owner.token }).PATCH('/v1/sites/{id}', {
      params: { path: { id: siteId } },
      body: { excludePaths: ['/private/**'] },
    });
    expect(patched.status).toBe(200);
    // /private/c is out: (7/12 + 7/12) / 2 = 58.3.
    expect(await storedScore()).toBe(58);
    const status = await v1({ token: owner.token }).GET('/v1/sites/{id}/status', {
      params: { path: { id: siteId } },
    });
    expect(status.body.latestA11yRun).toMatchObject({
      id: runId,
      a11y_score: 58,
      a11y_serious: 0,
      a11y_issue_count: 2,
    });
    const body = (await report()).body;
    expect(body.summary).toMatchObject({ score: 58, pagesScanned: 2, serious: 0 });
    expect(body.issues.some((i: { page_url: string }) => i.page_url === C)).toBe(false);
  });
});
