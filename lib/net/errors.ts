import { PRIVATE_NETWORKS_SETTING } from './private-networks';

/**
 * Every failure that happens before a usable HTTP response, in a small closed set. Callers branch
 * on `code` (uptime incident causes, link-check verdicts, webhook retries) and show `detail`,
 * which is written for a site owner rather than for a developer.
 */
export type NetErrorCode =
  | 'dns'
  | 'refused'
  | 'reset'
  | 'tls'
  | 'timeout'
  | 'blocked'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'body-too-large'
  | 'invalid-url'
  | 'aborted'
  | 'network';

/** One response on the way to a final one: its status and the URL that answered it. */
export interface RedirectHop {
  status: number;
  url: string;
}

export class NetError extends Error {
  readonly code: NetErrorCode;
  readonly detail: string;
  /** The URL whose request failed (set by `fetchFollowing`, which may have left the first URL). */
  url?: string;
  /** Responses received before the failure, when redirects were followed. */
  chain?: RedirectHop[];

  constructor(code: NetErrorCode, detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = 'NetError';
    this.code = code;
    this.detail = detail;
  }
}

/**
 * How every refused address is described, naming the one setting that could allow it, so an
 * operator reading a run's reason or a log line knows what to change.
 */
export const NOT_PUBLIC_ADDRESS = `not a public internet address (the operator of a self-hosted server can allow private ranges with ${PRIVATE_NETWORKS_SETTING})`;

/** Raised from inside the connector so undici surfaces it as the connection's error. */
export class BlockedAddressError extends Error {
  readonly code = 'ESITEWATCH_BLOCKED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${address === host ? `refused to connect to ${address}` : `refused to connect to ${host} (${address})`}: ${NOT_PUBLIC_ADDRESS}`,
    );
    this.name = 'BlockedAddressError';
  }
}

const TLS_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain contains a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate chain is incomplete',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate issuer is unknown',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate issuer is unknown',
  CERT_REVOKED: 'the certificate has been revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not match the host name',
  CERT_SIGNATURE_FAILURE: 'the certificate signature is invalid',
};

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function timeoutDetail(timeoutMs: number): string {
  return `timed out after ${Math.round(timeoutMs / 10) / 100} s`;
}

/**
 * Maps whatever undici, node:net, node:tls or getaddrinfo threw to a NetError. Unknown errors land
 * in `network` with their own message, so nothing is ever swallowed.
 */
export function toNetError(err: unknown, host: string, timeoutMs?: number): NetError {
  if (err instanceof NetError) return err;
  if (err instanceof BlockedAddressError) return new NetError('blocked', err.message, { cause: err });

  // undici wraps connector errors rarely, but keep the original if it is nested.
  const cause = (err as { cause?: unknown } | null)?.cause;
  if (cause instanceof BlockedAddressError) return new NetError('blocked', cause.message, { cause });

  const code = errorCode(err) ?? errorCode(cause);
  if (code && DNS_CODES.has(code)) {
    return new NetError('dns', `DNS lookup failed for host ${host}`, { cause: err });
  }
  if (code === 'ECONNREFUSED')
    return new NetError('refused', `connection refused by ${host}`, { cause: err });
  if (code && RESET_CODES.has(code)) {
    return new NetError('reset', `connection reset by ${host}`, { cause: err });
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new NetError('timeout', `timed out connecting to ${host}`, { cause: err });
  }
  if (code && TIMEOUT_CODES.has(code)) {
    const detail = timeoutMs === undefined ? `timed out waiting for ${host}` : timeoutDetail(timeoutMs);
    return new NetError('timeout', detail, { cause: err });
  }
  if (code && code in TLS_WORDS) {
    return new NetError('tls', `TLS error: ${TLS_WORDS[code]}`, { cause: err });
  }
  const message = errorMessage(err);
  if (
    (code && (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.includes('CERT'))) ||
    /\b(ssl|tls)\b/i.test(message)
  ) {
    return new NetError('tls', `TLS error: ${message}`, { cause: err });
  }
  if (code?.startsWith('Z_')) {
    return new NetError('network', 'could not decode the compressed response body', { cause: err });
  }
  if (code === 'ERR_INVALID_URL')
    return new NetError('invalid-url', `invalid URL: ${message}`, { cause: err });
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new NetError('network', `host ${host} is unreachable`, { cause: err });
  }
  return new NetError('network', `network error: ${message}`, { cause: err });
}
