import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { type RunSettings, runs } from '@/lib/db/schema';
import { enqueueUrls, type NewFrontierUrl, skipPending } from '../engine/frontier';
import { fetchRobotsText, policyFrom, type RobotsFetch } from '../engine/robots';
import { admit, allowanceMessage, pageCap, rulesOf } from '../engine/rules';
import { fetchSitemapUrls } from '../engine/sitemap';
import { DEFAULT_TUNING, type WorkOptions } from '../engine/tuning';
import { loadRun } from './run';

/**
 * Seeds a run: reads robots.txt, seeds the root URL and the sitemaps' URLs, and moves the run to
 * `crawling`. Idempotent: it only acts on a run in phase `seeding`, and a repeat inserts nothing new.
 */
export async function seedRun(
  db: Db,
  runId: string,
  options: WorkOptions = {},
): Promise<'seeded' | 'skipped'> {
  const tuning = { ...DEFAULT_TUNING, ...options };
  const run = await loadRun(db, runId);
  if (run?.state !== 'running' || run.phase !== 'seeding' || !run.settings) return 'skipped';
  const settings = run.settings;
  const now = Date.now();

  if (pageCap(settings) <= 0) {
    // Nothing may be crawled: the run ends at once (finalize records it as failed with this reason).
    await db
      .update(runs)
      .set({ phase: 'crawling', error: allowanceMessage(), heartbeat_at: now })
      .where(eq(runs.id, runId));
    return 'seeded';
  }

  const origin = new URL(settings.rootUrl).origin;
  const fetched: RobotsFetch = await fetchRobotsText(origin, {
    timeoutMs: tuning.requestTimeoutMs,
    signal: options.signal,
  });
  const policy = policyFrom(fetched);
  const seeded: RunSettings = {
    ...settings,
    // The policy's note also says when only part of a very large robots.txt applies.
    robots: { url: fetched.url, text: fetched.text, note: policy.note },
  };
  const rules = rulesOf(seeded);

  const entries: NewFrontierUrl[] = [
    { url: rules.root, kind: 'internal', depth: 0, foundOn: null, isAsset: false },
  ];
  let error: string | null = null;
  if (!rules.isAllowed(rules.root)) {
    error = `robots.txt disallows ${rules.root} for SitewatchBot, so the site cannot be crawled`;
  } else {
    const sitemaps = [...new Set([...policy.sitemaps, new URL('/sitemap.xml', origin).href])];
    const found = await fetchSitemapUrls(sitemaps, {
      maxUrls: Math.min(50_000, pageCap(settings) * 2),
      timeoutMs: tuning.requestTimeoutMs,
      signal: options.signal,
    });
    for (const raw of found.urls) {
      const admitted = admit(rules, raw);
      if (admitted?.kind === 'internal' && admitted.url !== rules.root) {
        entries.push({ url: admitted.url, kind: 'internal', depth: 1, foundOn: null, isAsset: false });
      }
    }
  }

  await db.transaction(async (tx) => {
    // The root first: seq order is crawl order, and a root that fails ends the crawl early.
    await enqueueUrls(tx, runId, entries);
    await tx
      .update(runs)
      .set({ phase: 'crawling', settings: seeded, heartbeat_at: now, ...(error ? { error } : {}) })
      .where(sql`${runs.id} = ${runId} and ${runs.phase} = 'seeding'`);
  });
  if (error) await skipPending(db, runId, 'all', 'not crawled: the crawl could not start');
  return 'seeded';
}
