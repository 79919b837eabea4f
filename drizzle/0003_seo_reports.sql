DROP TABLE "seo_issues" CASCADE;--> statement-breakpoint
CREATE TABLE "seo_reports" (
	"run_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"issues" jsonb NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "seo_reports" ADD CONSTRAINT "seo_reports_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seo_reports_tenant_idx" ON "seo_reports" USING btree ("tenant_id","run_id");