CREATE TABLE "report_prints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"state" text NOT NULL,
	"queued_at" bigint NOT NULL,
	"until" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_prints" ADD CONSTRAINT "report_prints_tenant_id_organizations_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_prints_tenant_idx" ON "report_prints" USING btree ("tenant_id");