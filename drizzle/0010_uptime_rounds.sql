ALTER TABLE "probe_results" ADD COLUMN "round_at" bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "probe_results" ADD COLUMN "dns_ms" double precision;--> statement-breakpoint
ALTER TABLE "probe_results" ADD COLUMN "connect_ms" double precision;--> statement-breakpoint
ALTER TABLE "probe_results" ADD COLUMN "tls_ms" double precision;--> statement-breakpoint
ALTER TABLE "probe_results" ADD COLUMN "first_byte_ms" double precision;--> statement-breakpoint
ALTER TABLE "probe_results" ADD COLUMN "cert_expires_at" bigint;--> statement-breakpoint
ALTER TABLE "probe_results" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_incidents" ADD COLUMN "healthy_rounds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_incidents" ADD COLUMN "healthy_since" bigint;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "round_at" bigint;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "lease_id" uuid;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "lease_until" bigint;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "cert_warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "latest_probes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD COLUMN "last_consensus" jsonb;--> statement-breakpoint
CREATE INDEX "probe_hourly_buckets_start_idx" ON "probe_hourly_buckets" USING btree ("bucket_start");--> statement-breakpoint
CREATE INDEX "probe_results_checked_idx" ON "probe_results" USING btree ("checked_at");