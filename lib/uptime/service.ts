/**
 * The routes' entry to uptime: monitors, their metrics, live state
 * and heartbeat ping URLs, and maintenance windows.
 * Each is defined by the module that owns it.
 */
export { rotatePingUrl } from './heartbeats';
export { getMonitorLive } from './live';
export {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  getMaintenanceWindow,
  listMaintenanceWindows,
  updateMaintenanceWindow,
} from './maintenance-windows';
export { getMonitorMetrics } from './metrics';
export { createMonitor, deleteMonitor, getMonitor, listMonitors, updateMonitor } from './monitors';
