-- Each SEO report part's issues counted by check and its distinct pages, so the report's counts and
-- summary are read from these columns and a check's pages only from the parts that have it. Parts
-- written before stay null and are read the old way (counted from their issues).
ALTER TABLE "seo_reports" ADD COLUMN "check_counts" jsonb;--> statement-breakpoint
ALTER TABLE "seo_reports" ADD COLUMN "page_count" integer;