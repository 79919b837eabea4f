CREATE TABLE "report_pdfs" (
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"period" text NOT NULL,
	"fingerprint" text NOT NULL,
	"pdf" "bytea" NOT NULL,
	"rendered_at" bigint NOT NULL,
	CONSTRAINT "report_pdfs_tenant_id_site_id_period_pk" PRIMARY KEY("tenant_id","site_id","period")
);
--> statement-breakpoint
CREATE TABLE "report_render_leases" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_pdfs" ADD CONSTRAINT "report_pdfs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_render_leases" ADD CONSTRAINT "report_render_leases_tenant_id_organizations_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;