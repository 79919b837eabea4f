-- The accessibility render pass as a run (issue 13): runs.a11y_phase tracks a run's pass
-- (seeding, rendering, finalizing, done; null when it renders nothing) apart from its crawl state,
-- runs.a11y_pass holds what the pass renders and may render, a11y_pages rows start 'pending' and
-- the pass takes them in URL order (pending index). One standalone a11y run per site at a time.
ALTER TABLE "runs" ADD COLUMN "a11y_phase" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "a11y_pass" jsonb;--> statement-breakpoint
CREATE INDEX "a11y_pages_pending_idx" ON "a11y_pages" USING btree ("run_id","page_url") WHERE "a11y_pages"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_running_a11y_idx" ON "runs" USING btree ("site_id") WHERE "runs"."state" = 'running' and "runs"."kind" = 'a11y';--> statement-breakpoint
CREATE INDEX "runs_a11y_active_idx" ON "runs" USING btree ("site_id") WHERE "runs"."a11y_phase" in ('seeding', 'rendering', 'finalizing');