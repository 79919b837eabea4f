import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import type { ApiKeyView as KeyServiceView } from '@/lib/keys/service';
import { type Holds, pathId, type Same } from './common';

const MAX_SCOPED_SITES = 1000;

/** Path `{id}` of a key. A malformed id names no key, so it is the same 404 as an unknown one. */
export const keyIdParams = z.object({
  id: pathId(() => notFound('key not found')).describe("the key's id"),
});

export const createKeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .describe('a name to tell keys apart (1-100 characters)'),
  /** Omitted or null: every site of the organization, including sites added later. */
  siteIds: z
    .array(z.uuid('must be site ids (UUIDs)'))
    .min(1, 'must name at least one site; omit it for a key that sees every site')
    .max(MAX_SCOPED_SITES)
    .nullish()
    .describe(
      `the only sites the key may see (1-${MAX_SCOPED_SITES}); omitted or null: every site, including sites added later`,
    ),
  /** Omitted or null: the key never expires. */
  expiresInDays: z
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .max(3650, 'must be at most 3650')
    .nullish()
    .describe('days until the key stops working (1-3650); omitted or null: never'),
});
export type CreateKeyInput = z.output<typeof createKeyBody>;

export const apiKeyView = z
  .object({
    id: z.uuid().describe("the key's id"),
    name: z.string().describe("the key's name"),
    prefix: z.string().describe('the first characters of the secret, to tell keys apart'),
    siteIds: z
      .array(z.uuid())
      .nullable()
      .describe('the sites the key may see; null = every site of the organization'),
    expiresAt: z.int().nullable().describe('when the key stops working (epoch milliseconds); null: never'),
    createdAt: z.int().describe('when the key was created (epoch milliseconds)'),
    lastUsedAt: z.int().nullable().describe('when the key was last used (epoch milliseconds); null: never'),
  })
  .meta({ id: 'ApiKey', description: 'An API key of the organization, without its secret' });
export type ApiKeyView = z.output<typeof apiKeyView>;

export const listKeysResponse = z
  .object({ keys: z.array(apiKeyView).describe("the organization's keys") })
  .describe('The keys (never their secrets)');
/** Create and re-roll: the only two responses that ever carry a plaintext secret. */
export const keyWithSecretResponse = z
  .object({
    key: apiKeyView.describe('the key'),
    secret: z.string().describe('the secret to send as x-api-key: shown in this response only, never again'),
  })
  .describe('The key and its secret');
export const revokeKeyResponse = z
  .object({ revoked: z.literal(true).describe('always true') })
  .describe('The key was revoked');

/** What the key service answers is exactly this schema's output: typecheck fails on drift. */
export type KeyServiceMatchesSchema = Holds<Same<KeyServiceView, ApiKeyView>>;
