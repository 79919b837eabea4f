-- Frontier URLs order byte by byte, whatever the database's locale: finalization pages through a
-- run's pages along the primary key and writes its report in that order, which must be the order
-- JavaScript sorts the same (ASCII, normalized) URLs in. Equality, and so every lookup and join
-- on url, is unchanged.
ALTER TABLE "crawl_urls" ALTER COLUMN "url" SET DATA TYPE text COLLATE "C";
