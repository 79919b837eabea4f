/** The /v1 resources the dashboard reads, as the interface specification defines them. */
import type { LiveCrawlState } from '@/lib/sites/live';
import type { RunResource, SiteResource } from '@/lib/sites/resource';

export type { LiveCrawlState };

export type Site = SiteResource;
export type Run = RunResource;

export type Quota = { count: number; included: number; overageEnabled: boolean };

export type SiteStatus = {
  site: Site;
  live: LiveCrawlState;
  latestRun: Run | null;
  latestA11yRun: Run | null;
};

export type BrokenLink = {
  id: string;
  run_id: string;
  source_url: string;
  target_url: string;
  status: 'broken' | 'error';
  status_code: number | null;
  kind: 'internal' | 'external';
  redirect_chain: string | null;
  detail: string | null;
  created_at: number;
  link_text: string | null;
  link_selector: string | null;
  link_attrs: string | null;
};

export type BrokenLinkReport = { run: Run; brokenLinks: BrokenLink[] };
