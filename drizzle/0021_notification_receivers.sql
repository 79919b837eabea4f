CREATE TABLE "notification_receivers" (
	"tenant_id" text NOT NULL,
	"receiver_key" text NOT NULL,
	"channel" text NOT NULL,
	"label" text NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"opens" integer DEFAULT 0 NOT NULL,
	"opened_at" bigint,
	"open_until" bigint,
	"slow" integer DEFAULT 0 NOT NULL,
	"last_failure" text,
	"last_failure_at" bigint,
	"last_success_at" bigint,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "notification_receivers_tenant_id_receiver_key_pk" PRIMARY KEY("tenant_id","receiver_key")
);
