CREATE TABLE "data_migrations" (
	"name" text PRIMARY KEY NOT NULL,
	"applied_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "notification_outbox_done_idx" ON "notification_outbox" USING btree ("created_at") WHERE "notification_outbox"."state" <> 'pending';