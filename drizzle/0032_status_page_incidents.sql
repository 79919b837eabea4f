CREATE TABLE "status_page_incident_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"status_page_id" uuid NOT NULL,
	"uptime_incident_id" uuid,
	"page_incident_id" uuid,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "status_page_incident_updates_one_incident" CHECK (("status_page_incident_updates"."uptime_incident_id" is null) <> ("status_page_incident_updates"."page_incident_id" is null))
);
--> statement-breakpoint
CREATE TABLE "status_page_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"status_page_id" uuid NOT NULL,
	"title" text NOT NULL,
	"impact" text NOT NULL,
	"started_at" bigint NOT NULL,
	"resolved_at" bigint
);
--> statement-breakpoint
ALTER TABLE "status_page_incident_updates" ADD CONSTRAINT "status_page_incident_updates_status_page_id_status_pages_id_fk" FOREIGN KEY ("status_page_id") REFERENCES "public"."status_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_incident_updates" ADD CONSTRAINT "status_page_incident_updates_uptime_incident_id_uptime_incidents_id_fk" FOREIGN KEY ("uptime_incident_id") REFERENCES "public"."uptime_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_incident_updates" ADD CONSTRAINT "status_page_incident_updates_page_incident_id_status_page_incidents_id_fk" FOREIGN KEY ("page_incident_id") REFERENCES "public"."status_page_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_incidents" ADD CONSTRAINT "status_page_incidents_status_page_id_status_pages_id_fk" FOREIGN KEY ("status_page_id") REFERENCES "public"."status_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "status_page_incident_updates_page_idx" ON "status_page_incident_updates" USING btree ("status_page_id","created_at");--> statement-breakpoint
CREATE INDEX "status_page_incidents_page_idx" ON "status_page_incidents" USING btree ("status_page_id","started_at");