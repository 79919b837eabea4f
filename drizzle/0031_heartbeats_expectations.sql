ALTER TABLE "uptime_monitors" ALTER COLUMN "url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "kind" text DEFAULT 'http' NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "expected_statuses" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "keyword" text;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "keyword_absent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "period_seconds" integer;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "grace_seconds" integer;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "ping_token_hash" text;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "ping_token_hint" text;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "last_ping_at" bigint;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "ping_window" bigint;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "ping_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "uptime_monitors_ping_token_idx" ON "uptime_monitors" USING btree ("ping_token_hash");