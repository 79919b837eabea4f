DROP INDEX "crawl_urls_sort_status_idx";--> statement-breakpoint
DROP INDEX "crawl_urls_sort_depth_idx";--> statement-breakpoint
DROP INDEX "crawl_urls_sort_inlinks_idx";--> statement-breakpoint
DROP INDEX "crawl_urls_sort_outlinks_idx";--> statement-breakpoint
DROP INDEX "crawl_urls_sort_response_idx";--> statement-breakpoint
CREATE INDEX "crawl_urls_sort_status_idx" ON "crawl_urls" USING btree ("run_id",coalesce(case when redirect_chain is null then status_code else coalesce((redirect_chain::jsonb -> 0 ->> 'status')::int, status_code) end, -1),"url") WHERE "crawl_urls"."inlinks" is not null;--> statement-breakpoint
CREATE INDEX "crawl_urls_sort_depth_idx" ON "crawl_urls" USING btree ("run_id","depth","url") WHERE "crawl_urls"."inlinks" is not null;--> statement-breakpoint
CREATE INDEX "crawl_urls_sort_inlinks_idx" ON "crawl_urls" USING btree ("run_id",coalesce("inlinks", -1),"url") WHERE "crawl_urls"."inlinks" is not null;--> statement-breakpoint
CREATE INDEX "crawl_urls_sort_outlinks_idx" ON "crawl_urls" USING btree ("run_id",coalesce(case when links is null then null else jsonb_array_length(links) end, -1),"url") WHERE "crawl_urls"."inlinks" is not null;--> statement-breakpoint
CREATE INDEX "crawl_urls_sort_response_idx" ON "crawl_urls" USING btree ("run_id",coalesce("response_ms", -1),"url") WHERE "crawl_urls"."inlinks" is not null;