CREATE TABLE "domain_registrations" (
	"domain" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"expires_at" bigint,
	"note" text,
	"rdap_url" text,
	"checked_at" bigint,
	"read_at" bigint,
	"next_check_at" bigint NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"lease_until" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rdap_bootstrap" (
	"registry" text PRIMARY KEY NOT NULL,
	"services" jsonb NOT NULL,
	"fetched_at" bigint,
	"checked_at" bigint,
	"error" text,
	"next_fetch_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "domain" text;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "domain_of_url" text;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "domain_state" text;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "domain_expires_at" bigint;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "domain_checked_at" bigint;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "domain_note" text;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "domain_warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "domain_registrations_due_idx" ON "domain_registrations" USING btree ("next_check_at");--> statement-breakpoint
CREATE INDEX "uptime_monitors_domain_idx" ON "uptime_monitors" USING btree ("domain");