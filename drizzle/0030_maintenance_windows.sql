CREATE TABLE "maintenance_window_monitors" (
	"window_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	CONSTRAINT "maintenance_window_monitors_window_id_monitor_id_pk" PRIMARY KEY("window_id","monitor_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_windows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"title" text NOT NULL,
	"starts_at" bigint NOT NULL,
	"ends_at" bigint NOT NULL,
	"all_monitors" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "maintenance_window_monitors" ADD CONSTRAINT "maintenance_window_monitors_window_id_maintenance_windows_id_fk" FOREIGN KEY ("window_id") REFERENCES "public"."maintenance_windows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_window_monitors" ADD CONSTRAINT "maintenance_window_monitors_monitor_id_uptime_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."uptime_monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_windows" ADD CONSTRAINT "maintenance_windows_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_window_monitors_monitor_idx" ON "maintenance_window_monitors" USING btree ("monitor_id");--> statement-breakpoint
CREATE INDEX "maintenance_windows_site_idx" ON "maintenance_windows" USING btree ("tenant_id","site_id","starts_at");--> statement-breakpoint
CREATE INDEX "maintenance_windows_ends_idx" ON "maintenance_windows" USING btree ("site_id","ends_at");