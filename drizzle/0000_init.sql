CREATE TABLE "a11y_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"page_url" text NOT NULL,
	"rule" text NOT NULL,
	"impact" text,
	"wcag" text,
	"help" text NOT NULL,
	"help_url" text NOT NULL,
	"type" text NOT NULL,
	"count" integer NOT NULL,
	"nodes" text DEFAULT '[]' NOT NULL,
	"created_at" bigint NOT NULL,
	"standards" jsonb,
	"sc" text,
	"principle" text
);
--> statement-breakpoint
CREATE TABLE "a11y_manual_checks" (
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"sc" text NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"by" text,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "a11y_suppressions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"selector" text,
	"page_url" text,
	"reason" text,
	"created_by" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"site_ids" jsonb,
	"expires_at" bigint,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	"revoked_at" bigint,
	"created_by" text
);
--> statement-breakpoint
CREATE TABLE "limit_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"current_limit" integer NOT NULL,
	"requested_limit" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" bigint NOT NULL,
	"decided_at" bigint
);
--> statement-breakpoint
CREATE TABLE "member_access" (
	"member_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"can_crawl" integer DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_site_grants" (
	"member_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "member_site_grants_member_id_site_id_pk" PRIMARY KEY("member_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text,
	"status" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"inviter_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"logo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" text,
	CONSTRAINT "organizations_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limits_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	"active_organization_id" text,
	CONSTRAINT "sessions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_data" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"form_factor" text DEFAULT 'ALL' NOT NULL,
	"period_end" text NOT NULL,
	"lcp" double precision,
	"inp" double precision,
	"cls" double precision,
	"ttfb" double precision,
	"collected_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"status" text,
	"account_email" text,
	"property" text,
	"refresh_token_enc" text,
	"analytics_synced_at" bigint,
	"error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"transport" text NOT NULL,
	"provider_id" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"site_id" uuid,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"sent_at" bigint
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"tenant_id" text NOT NULL,
	"scope" text NOT NULL,
	"settings" jsonb NOT NULL,
	"include_org_defaults" integer DEFAULT 1 NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broken_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"source_url" text NOT NULL,
	"target_url" text NOT NULL,
	"status" text NOT NULL,
	"status_code" integer,
	"kind" text NOT NULL,
	"redirect_chain" text,
	"detail" text,
	"created_at" bigint NOT NULL,
	"link_text" text,
	"link_selector" text,
	"link_attrs" text
);
--> statement-breakpoint
CREATE TABLE "crawl_links" (
	"run_id" uuid NOT NULL,
	"source_url" text NOT NULL,
	"target_url" text NOT NULL,
	"link_text" text,
	"link_selector" text,
	"link_attrs" text,
	CONSTRAINT "crawl_links_run_id_target_url_source_url_pk" PRIMARY KEY("run_id","target_url","source_url")
);
--> statement-breakpoint
CREATE TABLE "crawl_urls" (
	"run_id" uuid NOT NULL,
	"url" text NOT NULL,
	"kind" text NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"lease_expires_at" bigint,
	"found_on" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"verdict" text,
	"status_code" integer,
	"redirect_chain" text,
	"detail" text,
	"seo_facts" jsonb,
	"is_page" integer DEFAULT 0 NOT NULL,
	"seq" integer GENERATED ALWAYS AS IDENTITY (sequence name "crawl_urls_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	CONSTRAINT "crawl_urls_run_id_url_pk" PRIMARY KEY("run_id","url")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"started_at" bigint NOT NULL,
	"finished_at" bigint,
	"state" text NOT NULL,
	"kind" text NOT NULL,
	"pages_crawled" integer DEFAULT 0 NOT NULL,
	"links_checked" integer DEFAULT 0 NOT NULL,
	"broken_count" integer DEFAULT 0 NOT NULL,
	"pages_with_broken_count" integer DEFAULT 0 NOT NULL,
	"internal_broken" integer DEFAULT 0 NOT NULL,
	"external_broken" integer DEFAULT 0 NOT NULL,
	"a11y_score" integer,
	"a11y_critical" integer DEFAULT 0 NOT NULL,
	"a11y_serious" integer DEFAULT 0 NOT NULL,
	"a11y_moderate" integer DEFAULT 0 NOT NULL,
	"a11y_minor" integer DEFAULT 0 NOT NULL,
	"a11y_pages_scanned" integer DEFAULT 0 NOT NULL,
	"a11y_issue_count" integer DEFAULT 0 NOT NULL,
	"a11y_resolved" integer DEFAULT 0 NOT NULL,
	"seo_score" integer,
	"seo_critical" integer DEFAULT 0 NOT NULL,
	"seo_serious" integer DEFAULT 0 NOT NULL,
	"seo_moderate" integer DEFAULT 0 NOT NULL,
	"seo_minor" integer DEFAULT 0 NOT NULL,
	"seo_pages_scanned" integer DEFAULT 0 NOT NULL,
	"seo_issue_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"chain_a11y" integer DEFAULT 0 NOT NULL,
	"phase" text DEFAULT 'seeding' NOT NULL,
	"window" integer DEFAULT 2 NOT NULL,
	"settings" jsonb,
	"heartbeat_at" bigint
);
--> statement-breakpoint
CREATE TABLE "seo_issues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"check" text NOT NULL,
	"impact" text NOT NULL,
	"page_url" text NOT NULL,
	"detail" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"hostname" text NOT NULL,
	"root_url" text NOT NULL,
	"cadence_minutes" integer NOT NULL,
	"max_pages" integer NOT NULL,
	"max_concurrency" integer NOT NULL,
	"enabled" integer NOT NULL,
	"last_run_at" bigint,
	"next_run_at" bigint,
	"created_at" bigint NOT NULL,
	"scanner_enabled" integer NOT NULL,
	"a11y_enabled" integer NOT NULL,
	"a11y_cadence_minutes" integer,
	"a11y_next_run_at" bigint,
	"performance_enabled" integer NOT NULL,
	"uptime_enabled" integer NOT NULL,
	"seo_enabled" integer NOT NULL,
	"fielddata_status" text,
	"fielddata_checked_at" bigint,
	"exclude_paths" text DEFAULT '[]' NOT NULL,
	"strip_params" text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "probe_hourly_buckets" (
	"tenant_id" text NOT NULL,
	"monitor_id" uuid NOT NULL,
	"region" text NOT NULL,
	"bucket_start" bigint NOT NULL,
	"total" integer NOT NULL,
	"failed" integer NOT NULL,
	"p50_ms" double precision,
	"p95_ms" double precision
);
--> statement-breakpoint
CREATE TABLE "probe_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"monitor_id" uuid NOT NULL,
	"region" text NOT NULL,
	"checked_at" bigint NOT NULL,
	"ok" integer NOT NULL,
	"status_code" integer,
	"latency_ms" double precision,
	"cause" text,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "uptime_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"monitor_id" uuid NOT NULL,
	"down_at" bigint NOT NULL,
	"recovered_at" bigint,
	"cause" text,
	"regions" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uptime_monitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"site_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"url" text NOT NULL,
	"name" text,
	"cadence_seconds" integer DEFAULT 60 NOT NULL,
	"timeout_seconds" integer DEFAULT 10 NOT NULL,
	"enabled" integer NOT NULL,
	"alert_emails" text,
	"alert_webhooks" text,
	"status" text DEFAULT 'unknown' NOT NULL,
	"status_since" bigint,
	"last_checked_at" bigint,
	"next_probe_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_pauses" (
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"app" text NOT NULL,
	"billing_period" text NOT NULL,
	"paused_at" bigint NOT NULL,
	CONSTRAINT "app_pauses_site_id_app_billing_period_pk" PRIMARY KEY("site_id","app","billing_period")
);
--> statement-breakpoint
CREATE TABLE "billing_settings" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"overage_enabled" integer DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"site_id" uuid NOT NULL,
	"hostname" text NOT NULL,
	"run_id" uuid NOT NULL,
	"run_kind" text NOT NULL,
	"billing_period" text NOT NULL,
	"pages_crawled" integer DEFAULT 0 NOT NULL,
	"pages_rendered" integer DEFAULT 0 NOT NULL,
	"links_checked" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "a11y_findings" ADD CONSTRAINT "a11y_findings_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a11y_manual_checks" ADD CONSTRAINT "a11y_manual_checks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a11y_suppressions" ADD CONSTRAINT "a11y_suppressions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_organizations_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "limit_requests" ADD CONSTRAINT "limit_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_access" ADD CONSTRAINT "member_access_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_site_grants" ADD CONSTRAINT "member_site_grants_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_site_grants" ADD CONSTRAINT "member_site_grants_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_data" ADD CONSTRAINT "field_data_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_connections" ADD CONSTRAINT "search_connections_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broken_links" ADD CONSTRAINT "broken_links_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawl_links" ADD CONSTRAINT "crawl_links_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawl_urls" ADD CONSTRAINT "crawl_urls_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seo_issues" ADD CONSTRAINT "seo_issues_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_tenant_id_organizations_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "probe_hourly_buckets" ADD CONSTRAINT "probe_hourly_buckets_monitor_id_uptime_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."uptime_monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "probe_results" ADD CONSTRAINT "probe_results_monitor_id_uptime_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."uptime_monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uptime_incidents" ADD CONSTRAINT "uptime_incidents_monitor_id_uptime_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."uptime_monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uptime_monitors" ADD CONSTRAINT "uptime_monitors_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_tenant_id_organizations_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "a11y_findings_run_idx" ON "a11y_findings" USING btree ("tenant_id","run_id","page_url");--> statement-breakpoint
CREATE UNIQUE INDEX "a11y_manual_checks_site_sc_idx" ON "a11y_manual_checks" USING btree ("tenant_id","site_id","sc");--> statement-breakpoint
CREATE INDEX "a11y_suppressions_site_idx" ON "a11y_suppressions" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_tenant_idx" ON "api_keys" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "limit_requests_user_idx" ON "limit_requests" USING btree ("user_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "limit_requests_one_pending_idx" ON "limit_requests" USING btree ("user_id","kind") WHERE "limit_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "member_site_grants_tenant_idx" ON "member_site_grants" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "accounts_user_idx" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "invitations_org_idx" ON "invitations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "invitations_email_idx" ON "invitations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "members_org_idx" ON "members" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "members_org_user_idx" ON "members" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "verifications_identifier_idx" ON "verifications" USING btree ("identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "field_data_window_idx" ON "field_data" USING btree ("tenant_id","site_id","form_factor","period_end");--> statement-breakpoint
CREATE UNIQUE INDEX "search_connections_site_idx" ON "search_connections" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "mail_messages_to_idx" ON "mail_messages" USING btree ("to","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_outbox_dedupe_idx" ON "notification_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "notification_outbox_due_idx" ON "notification_outbox" USING btree ("next_attempt_at") WHERE "notification_outbox"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "notification_outbox_tenant_idx" ON "notification_outbox" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_settings_scope_idx" ON "notification_settings" USING btree ("tenant_id","scope");--> statement-breakpoint
CREATE UNIQUE INDEX "broken_links_run_target_source_idx" ON "broken_links" USING btree ("run_id","target_url","source_url");--> statement-breakpoint
CREATE INDEX "broken_links_tenant_idx" ON "broken_links" USING btree ("tenant_id","run_id");--> statement-breakpoint
CREATE INDEX "crawl_urls_pending_idx" ON "crawl_urls" USING btree ("run_id","seq") WHERE "crawl_urls"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "crawl_urls_leased_idx" ON "crawl_urls" USING btree ("run_id","lease_expires_at") WHERE "crawl_urls"."state" = 'leased';--> statement-breakpoint
CREATE INDEX "runs_site_idx" ON "runs" USING btree ("tenant_id","site_id","kind","started_at");--> statement-breakpoint
CREATE INDEX "runs_running_idx" ON "runs" USING btree ("state") WHERE "runs"."state" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_running_crawl_idx" ON "runs" USING btree ("site_id") WHERE "runs"."state" = 'running' and "runs"."kind" = 'crawl';--> statement-breakpoint
CREATE INDEX "seo_issues_run_idx" ON "seo_issues" USING btree ("tenant_id","run_id","check");--> statement-breakpoint
CREATE INDEX "sites_tenant_idx" ON "sites" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "sites_due_idx" ON "sites" USING btree ("next_run_at") WHERE "sites"."enabled" = 1;--> statement-breakpoint
CREATE INDEX "sites_a11y_due_idx" ON "sites" USING btree ("a11y_next_run_at") WHERE "sites"."a11y_enabled" = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "probe_hourly_buckets_key_idx" ON "probe_hourly_buckets" USING btree ("monitor_id","region","bucket_start");--> statement-breakpoint
CREATE INDEX "probe_results_monitor_idx" ON "probe_results" USING btree ("monitor_id","region","checked_at");--> statement-breakpoint
CREATE INDEX "uptime_incidents_monitor_idx" ON "uptime_incidents" USING btree ("tenant_id","monitor_id","down_at");--> statement-breakpoint
CREATE UNIQUE INDEX "uptime_incidents_open_idx" ON "uptime_incidents" USING btree ("monitor_id") WHERE "uptime_incidents"."recovered_at" is null;--> statement-breakpoint
CREATE INDEX "uptime_monitors_site_idx" ON "uptime_monitors" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "uptime_monitors_due_idx" ON "uptime_monitors" USING btree ("next_probe_at") WHERE "uptime_monitors"."enabled" = 1;--> statement-breakpoint
CREATE INDEX "app_pauses_tenant_idx" ON "app_pauses" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_ledger_run_idx" ON "usage_ledger" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "usage_ledger_tenant_period_idx" ON "usage_ledger" USING btree ("tenant_id","billing_period","site_id");--> statement-breakpoint
CREATE INDEX "usage_ledger_site_idx" ON "usage_ledger" USING btree ("tenant_id","site_id","billing_period");