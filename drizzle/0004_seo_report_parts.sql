-- Reports written before this migration become part 0 of their run (the reader joins every part).
ALTER TABLE "seo_reports" DROP CONSTRAINT "seo_reports_pkey";--> statement-breakpoint
ALTER TABLE "seo_reports" ADD COLUMN "part" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "seo_reports" ALTER COLUMN "part" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "seo_reports" ADD CONSTRAINT "seo_reports_run_id_part_pk" PRIMARY KEY("run_id","part");
