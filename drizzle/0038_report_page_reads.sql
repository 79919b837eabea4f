-- Page reads of a large run's reports (issue 27): each broken target's linking pages stored on its
-- rows, so the broken-targets report's default order (most-linked first) is an index walk, and the
-- run's pages with links in URL order, so a URL's linking pages are walked without its asset rows.
ALTER TABLE "broken_links" ADD COLUMN "linking_pages" integer;--> statement-breakpoint
UPDATE "broken_links" b SET "linking_pages" = c.n
FROM (SELECT "run_id", "target_url", count(*)::integer AS n FROM "broken_links" GROUP BY 1, 2) c
WHERE b."run_id" = c."run_id" AND b."target_url" = c."target_url";--> statement-breakpoint
CREATE INDEX "broken_links_most_linked_idx" ON "broken_links" USING btree ("run_id",(-"linking_pages"),("target_url" collate "C")) WHERE "broken_links"."linking_pages" is not null;--> statement-breakpoint
CREATE INDEX "crawl_urls_linking_pages_idx" ON "crawl_urls" USING btree ("run_id","url") WHERE "crawl_urls"."inlinks" is not null and "crawl_urls"."links" is not null;
