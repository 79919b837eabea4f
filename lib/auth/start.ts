import type { Config } from '@/lib/config';
import { authSecret } from '@/lib/crypto/auth-secret';
import { installClientAddressFrontDoor } from './client-address';

/**
 * Auth's part of server start-up, before the first request: the signing secret exists (the first
 * boot generates it, and a damaged secret file stops the boot here rather than at the first sign-in),
 * and client addresses come from the connection (see client-address.ts).
 */
export function startAuth(c: Config): void {
  authSecret(c);
  installClientAddressFrontDoor(c.trustedProxy);
}
