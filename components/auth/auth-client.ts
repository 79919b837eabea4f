'use client';

import { emailOTPClient, organizationClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { ApiClientError } from '@/components/api/client';

/** better-auth's browser client, same-origin: the session travels as the httpOnly cookie. */
export const authClient = createAuthClient({
  plugins: [emailOTPClient(), organizationClient()],
});

type AuthResult<T> = {
  data: T | null;
  error: { message?: string; status: number; statusText?: string } | null;
};

/** better-auth answers `{data, error}`; forms want a value or a thrown error with a readable message. */
export async function unwrap<T>(call: Promise<AuthResult<T>>): Promise<T> {
  const { data, error } = await call;
  if (error) {
    throw new ApiClientError(error.status, error.message || error.statusText || 'request failed');
  }
  return data as T;
}
