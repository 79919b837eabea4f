/**
 * What the Performance app asks of the job runner (declared here, implemented by
 * jobs/fielddata-events.ts): sync these sites' field data now.
 */
export interface FieldDataEvents {
  syncRequested(requests: FieldDataSyncRequest[]): Promise<void>;
}

export interface FieldDataSyncRequest {
  siteId: string;
  tenantId: string;
  /** Deduplicates: the same key is one sync (a scheduled due time, or a manual request's minute). */
  key: string;
}
