/**
 * The routes' entry to the search connection: connecting, properties, alert settings and analytics. Each is
 * defined by the module that owns it.
 */
export { getSearchAnalytics } from './analytics';
export {
  chooseSearchProperty,
  completeSearchConnect,
  disconnectSearch,
  getSearchConnection,
  listSearchProperties,
  startSearchConnect,
  updateSearchAlertSettings,
} from './connection';
