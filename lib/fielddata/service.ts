/**
 * The routes' entry to field data: the report and a manual sync. Each is defined by the module that owns
 * it.
 */
export { getFieldDataReport, requestFieldDataSync } from './report';
