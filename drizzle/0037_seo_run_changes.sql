-- SEO issues new and fixed against the previous completed crawl, differenced once at finalization
-- instead of on every read of the report (seconds at 1,000,000 pages). Null on runs before: the
-- report then differences them on read, as before.
ALTER TABLE "runs" ADD COLUMN "seo_changes" jsonb;
