CREATE TABLE "alert_offers" (
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"offered_at" bigint NOT NULL,
	"answered_at" bigint,
	CONSTRAINT "alert_offers_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
