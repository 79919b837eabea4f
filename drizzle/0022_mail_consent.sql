CREATE TABLE "notification_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"address" text NOT NULL,
	"confirm_token_hash" text,
	"confirm_sent_at" bigint,
	"confirm_expires_at" bigint,
	"confirm_error" text,
	"confirmed_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_confirmation_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"address" text NOT NULL,
	"sent_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_unsubscribes" (
	"address_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"topic" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "notification_unsubscribes_address_id_topic_pk" PRIMARY KEY("address_id","topic")
);
--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "notification_unsubscribes" ADD CONSTRAINT "notification_unsubscribes_address_id_notification_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."notification_addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_addresses_address_idx" ON "notification_addresses" USING btree ("tenant_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_addresses_token_idx" ON "notification_addresses" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "notification_confirmation_sends_tenant_idx" ON "notification_confirmation_sends" USING btree ("tenant_id","sent_at");--> statement-breakpoint
CREATE INDEX "notification_confirmation_sends_address_idx" ON "notification_confirmation_sends" USING btree ("address","sent_at");