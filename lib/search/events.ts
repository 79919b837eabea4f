/**
 * What the search connection asks of the job runner (declared here, implemented by
 * jobs/search-events.ts): sync these sites' search analytics now.
 */
export interface SearchEvents {
  syncRequested(requests: SearchSyncRequest[]): Promise<void>;
}

export interface SearchSyncRequest {
  siteId: string;
  tenantId: string;
  /** The due time claimed: one sync per due time. */
  dueAt: number;
}
