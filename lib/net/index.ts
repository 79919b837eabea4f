/**
 * The only way out to the network. Crawler, link checks, uptime probes, webhooks and mail
 * providers all call `httpRequest` (one hop) or `fetchFollowing` (redirects followed by hand);
 * the render pass's Chromium goes out through `BrowserProxy`. Module map: README.md.
 */
export { isPublicAddress, isReachableAddress } from './address';
export { closeDispatchers } from './dispatcher';
export { NetError, type NetErrorCode, NOT_PUBLIC_ADDRESS } from './errors';
export {
  PRIVATE_NETWORKS_SETTING,
  type PrivateNetworks,
  parsePrivateNetworks,
  privatelyAllowed,
} from './private-networks';
export {
  BrowserProxy,
  type ContextProxySettings,
  type ProxyFailure,
  type ProxyNetwork,
  type ProxySession,
  systemNetwork,
} from './proxy';
export {
  chainOf,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type FollowedResponse,
  type FollowOptions,
  fetchFollowing,
  type HttpRequestOptions,
  type HttpResponse,
  header,
  httpRequest,
  isRedirectStatus,
  type RedirectHop,
  USER_AGENT_TOKEN,
  userAgent,
} from './request';
export { type TargetCheckOptions, unreachableTargetReason } from './target';
export type { ConnectionTrace } from './trace';
