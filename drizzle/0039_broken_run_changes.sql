-- Broken targets new and fixed against the previous completed crawl, differenced once at
-- finalization instead of on every page of the broken-targets report. Null on runs before: the
-- report then differences them on read, as before.
ALTER TABLE "runs" ADD COLUMN "broken_changes" jsonb;
