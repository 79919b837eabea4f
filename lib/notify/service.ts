/**
 * The routes' entry to notifications: settings, the delivery log and receivers' health, mail consent, the
 * signing secret, test sends and the alert offer. Each is defined by the module that owns it.
 */
export { alertOfferFor, answerAlertOffer } from './alert-offer';
export { confirmAddress, resendConfirmation, resubscribe, unsubscribe } from './consent';
export { listDeliveries, listReceiverHealth } from './log';
export {
  deleteSiteSettings,
  getOrgNotifications,
  getSiteSettings,
  updateOrgSettings,
  updateSiteSettings,
} from './settings';
export { rotateSigningSecret } from './signing';
export { sendTestNotification } from './test-send';
