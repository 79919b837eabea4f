/** Monitors one status page may list: the public read is a fixed number of queries, but its HTML grows with each. */
export const MAX_PAGE_MONITORS = 50;
/** Status pages per answer of GET /v1/status-pages (and the default). */
export const MAX_STATUS_PAGES_LIST = 100;
/** An incident update's message (plain text), and a manual incident's title. */
export const MAX_UPDATE_MESSAGE = 5000;
export const MAX_INCIDENT_TITLE = 200;
