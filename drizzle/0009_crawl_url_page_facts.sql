ALTER TABLE "crawl_urls" ADD COLUMN "content_type" text;--> statement-breakpoint
ALTER TABLE "crawl_urls" ADD COLUMN "response_ms" integer;--> statement-breakpoint
ALTER TABLE "crawl_urls" ADD COLUMN "inlinks" integer;