-- The reports' stored differences with the previous crawl move out of "runs" into a row of their
-- own: the lists run to a few hundred kilobytes, which only the reports showing them should read,
-- not every read of a run (the history's pages, the live state polled while a crawl runs).
CREATE TABLE "run_changes" (
	"run_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"seo" jsonb,
	"broken" jsonb
);
--> statement-breakpoint
ALTER TABLE "run_changes" ADD CONSTRAINT "run_changes_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_changes_tenant_idx" ON "run_changes" USING btree ("tenant_id","run_id");--> statement-breakpoint
INSERT INTO "run_changes" ("run_id", "tenant_id", "seo", "broken")
SELECT "id", "tenant_id", "seo_changes", "broken_changes" FROM "runs"
WHERE "seo_changes" IS NOT NULL OR "broken_changes" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" DROP COLUMN "seo_changes";--> statement-breakpoint
ALTER TABLE "runs" DROP COLUMN "broken_changes";
