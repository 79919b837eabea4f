DROP INDEX "crawl_urls_pending_idx";--> statement-breakpoint
ALTER TABLE "crawl_urls" ADD COLUMN "is_asset" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "crawl_urls_pending_idx" ON "crawl_urls" USING btree ("run_id","kind","seq") WHERE "crawl_urls"."state" = 'pending';