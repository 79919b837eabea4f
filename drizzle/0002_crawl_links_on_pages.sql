DROP TABLE "crawl_links" CASCADE;--> statement-breakpoint
ALTER TABLE "crawl_urls" ADD COLUMN "links" jsonb;