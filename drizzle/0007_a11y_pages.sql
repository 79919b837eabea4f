CREATE TABLE "a11y_pages" (
	"run_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"page_url" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"passes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"inapplicable" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "a11y_pages" ADD CONSTRAINT "a11y_pages_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "a11y_pages_run_page_idx" ON "a11y_pages" USING btree ("run_id","page_url");--> statement-breakpoint
CREATE INDEX "a11y_pages_tenant_run_idx" ON "a11y_pages" USING btree ("tenant_id","run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "a11y_findings_run_page_rule_idx" ON "a11y_findings" USING btree ("run_id","page_url","rule","type");