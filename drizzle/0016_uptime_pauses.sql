CREATE TABLE "uptime_pauses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"monitor_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint
);
--> statement-breakpoint
ALTER TABLE "uptime_incidents" ADD COLUMN "closed_by" text;--> statement-breakpoint
ALTER TABLE "uptime_pauses" ADD CONSTRAINT "uptime_pauses_monitor_id_uptime_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."uptime_monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uptime_pauses_monitor_idx" ON "uptime_pauses" USING btree ("tenant_id","monitor_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "uptime_pauses_open_idx" ON "uptime_pauses" USING btree ("monitor_id") WHERE "uptime_pauses"."ended_at" is null;--> statement-breakpoint
UPDATE "uptime_incidents" SET "closed_by" = 'recovery' WHERE "recovered_at" IS NOT NULL;
