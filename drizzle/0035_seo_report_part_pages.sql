-- The pages of each SEO report part's first and last issue, in the byte order the parts follow
-- (crawl_urls.url's collation, migration 0005), so one page's issues are read from its own parts.
ALTER TABLE "seo_reports" ADD COLUMN "first_page_url" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "seo_reports" ADD COLUMN "last_page_url" text COLLATE "C";
