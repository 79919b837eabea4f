CREATE TABLE "notification_attempts" (
	"delivery_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" bigint NOT NULL,
	"finished_at" bigint,
	"outcome" text,
	"status" integer,
	"detail" text,
	CONSTRAINT "notification_attempts_delivery_id_attempt_pk" PRIMARY KEY("delivery_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"site_id" uuid,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"receiver_key" text NOT NULL,
	"target" text NOT NULL,
	"member_user_id" text,
	"idempotency_key" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint,
	"lease_until" bigint,
	"last_status" integer,
	"last_outcome" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"sent_at" bigint
);
--> statement-breakpoint
CREATE TABLE "notification_signing_secrets" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_expires_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_delivery_id_notification_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notification_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_event_id_notification_outbox_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."notification_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_pair_idx" ON "notification_deliveries" USING btree ("event_id","receiver_key");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_key_idx" ON "notification_deliveries" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE "notification_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "notification_deliveries_lease_idx" ON "notification_deliveries" USING btree ("lease_until") WHERE "notification_deliveries"."state" = 'sending';--> statement-breakpoint
CREATE INDEX "notification_deliveries_log_idx" ON "notification_deliveries" USING btree ("tenant_id","created_at","id");