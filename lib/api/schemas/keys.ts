import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import type { ApiKeyView as KeyServiceView } from '@/lib/keys/service';
import { type Holds, pathId, type Same } from './common';

const MAX_SCOPED_SITES = 1000;

/** Path `{id}` of a key. A malformed id names no key, so it is the same 404 as an unknown one. */
export const keyIdParams = z.object({
  id: pathId(() => notFound('key not found')),
});

export const createKeyBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  /** Omitted or null: every site of the organization, including sites added later. */
  siteIds: z
    .array(z.uuid('must be site ids (UUIDs)'))
    .min(1, 'must name at least one site; omit it for a key that sees every site')
    .max(MAX_SCOPED_SITES)
    .nullish(),
  /** Omitted or null: the key never expires. */
  expiresInDays: z
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .max(3650, 'must be at most 3650')
    .nullish(),
});
export type CreateKeyInput = z.output<typeof createKeyBody>;

export const apiKeyView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The first characters of the secret, to tell keys apart. */
  prefix: z.string(),
  /** null = all sites of the organization. */
  siteIds: z.array(z.uuid()).nullable(),
  expiresAt: z.int().nullable(),
  createdAt: z.int(),
  lastUsedAt: z.int().nullable(),
});
export type ApiKeyView = z.output<typeof apiKeyView>;

export const listKeysResponse = z.object({ keys: z.array(apiKeyView) });
/** Create and re-roll: the only two responses that ever carry a plaintext secret. */
export const keyWithSecretResponse = z.object({ key: apiKeyView, secret: z.string() });
export const revokeKeyResponse = z.object({ revoked: z.literal(true) });

/** What the key service answers is exactly this schema's output: typecheck fails on drift. */
export type KeyServiceMatchesSchema = Holds<Same<KeyServiceView, ApiKeyView>>;
