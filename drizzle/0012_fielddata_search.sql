CREATE TABLE "api_rate_slots" (
	"api" text NOT NULL,
	"slot_start" bigint NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "api_rate_slots_api_slot_start_pk" PRIMARY KEY("api","slot_start")
);
--> statement-breakpoint
CREATE TABLE "field_data_syncs" (
	"site_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"origin" text,
	"verdict" text,
	"verdict_period_end" text,
	"next_sync_at" bigint NOT NULL,
	"last_error" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_analytics" (
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"day" text NOT NULL,
	"clicks" integer NOT NULL,
	"impressions" integer NOT NULL,
	"ctr" double precision NOT NULL,
	"position" double precision NOT NULL,
	CONSTRAINT "search_analytics_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
ALTER TABLE "search_connections" ADD COLUMN "next_sync_at" bigint;--> statement-breakpoint
ALTER TABLE "search_connections" ADD COLUMN "drop_threshold_pct" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_connections" ADD COLUMN "drop_min_clicks" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_connections" ADD COLUMN "drop_alerted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "field_data_syncs" ADD CONSTRAINT "field_data_syncs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_analytics" ADD CONSTRAINT "search_analytics_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "field_data_syncs_due_idx" ON "field_data_syncs" USING btree ("next_sync_at");--> statement-breakpoint
CREATE INDEX "search_analytics_tenant_idx" ON "search_analytics" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "search_connections_due_idx" ON "search_connections" USING btree ("next_sync_at") WHERE "search_connections"."next_sync_at" is not null;