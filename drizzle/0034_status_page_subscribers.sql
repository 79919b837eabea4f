CREATE TABLE "status_page_subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"status_page_id" uuid NOT NULL,
	"address" text NOT NULL,
	"confirm_token_hash" text,
	"confirm_sent_at" bigint,
	"confirm_expires_at" bigint,
	"confirmed_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_confirmation_sends" ADD COLUMN "status_page_id" uuid;--> statement-breakpoint
ALTER TABLE "status_page_subscribers" ADD CONSTRAINT "status_page_subscribers_tenant_id_organizations_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_page_subscribers" ADD CONSTRAINT "status_page_subscribers_status_page_id_status_pages_id_fk" FOREIGN KEY ("status_page_id") REFERENCES "public"."status_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "status_page_subscribers_page_address_idx" ON "status_page_subscribers" USING btree ("status_page_id","address");--> statement-breakpoint
CREATE INDEX "status_page_subscribers_token_idx" ON "status_page_subscribers" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "status_page_subscribers_tenant_idx" ON "status_page_subscribers" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "notification_confirmation_sends_page_idx" ON "notification_confirmation_sends" USING btree ("status_page_id","sent_at");