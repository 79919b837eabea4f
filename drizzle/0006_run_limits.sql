-- A run records the limits that cut its result short (runs.limits_hit), and the frontier tells a
-- lease lost to a crashed or hung worker (crawl_urls.lost_leases) from a planned deferral
-- (crawl_urls.deferred), so a URL that stopped the crawler twice is finished instead of retried.
-- Workers lease URLs whose worker died once one at a time, apart from the rest (suspect index).
ALTER TABLE "crawl_urls" ADD COLUMN "lost_leases" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "crawl_urls" ADD COLUMN "deferred" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "limits_hit" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "crawl_urls_suspect_idx" ON "crawl_urls" USING btree ("run_id","seq") WHERE "crawl_urls"."state" = 'pending' and "crawl_urls"."lost_leases" > 0;