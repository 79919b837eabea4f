import { z } from 'zod';
import { SEARCH_STATUSES } from '@/lib/db/schema';
import {
  DEFAULT_ANALYTICS_DAYS,
  MAX_ANALYTICS_DAYS,
  type SearchAnalyticsReport,
} from '@/lib/search/analytics';
import type { SearchConnectionView } from '@/lib/search/connection';
import type { SearchProperty } from '@/lib/search/google';
import { type Holds, type Same, wholeNumber } from './common';

/*
 * The search connection (spec: Search connection; POST /v1/sites/{id}/search/property): a site's
 * link to its owner's Search Console account, and the daily search analytics it syncs.
 */

export const searchConnectionResponse = z.object({
  configured: z.boolean().describe('whether this server has a Google OAuth client configured'),
  status: z
    .enum(SEARCH_STATUSES)
    .nullable()
    .describe(
      'null: never connected; pending-property: account connected, no property chosen; connected: syncing daily; error: syncing stopped, see error; revoked: disconnected',
    ),
  accountEmail: z.string().nullable().describe('the connected Google account (personal data)'),
  property: z
    .string()
    .nullable()
    .describe('the Search Console property, e.g. https://www.example.com/ or sc-domain:example.com'),
  analyticsSyncedAt: z.int().nullable().describe('the last analytics sync (epoch milliseconds)'),
  error: z.string().nullable().describe('why syncing stopped or the last sync failed, in plain words'),
  dropAlert: z
    .object({
      thresholdPct: z
        .int()
        .describe('alert when the last 7 days have this many percent fewer clicks than the 7 before'),
      minClicks: z.int().describe('... and the 7 days before had at least this many clicks'),
    })
    .describe('the traffic-drop alert of this site (PATCH /v1/sites/{id}/search)'),
});

export const searchConnectResponse = z.object({
  authorizeUrl: z.url().describe("Google's consent screen; send the browser there"),
});

export const searchCallbackQuery = z.object({
  state: z.string().max(2000).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  scope: z.string().max(2000).optional(),
  authuser: z.string().max(20).optional(),
  prompt: z.string().max(50).optional(),
  hd: z.string().max(255).optional(),
});

const propertySchema = z.object({
  siteUrl: z
    .string()
    .describe('the property: https://www.example.com/ (URL prefix) or sc-domain:example.com (domain)'),
  permissionLevel: z
    .enum(['siteOwner', 'siteFullUser', 'siteRestrictedUser', 'siteUnverifiedUser'])
    .describe("the account's permission on the property, as Search Console names it"),
});

export const searchPropertiesResponse = z.object({
  properties: z.array(propertySchema).describe('properties the account can read (unverified ones left out)'),
});

export const searchPropertyBody = z.strictObject({
  property: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(2048, 'is too long')
    .describe('a siteUrl from GET /v1/sites/{id}/search/properties'),
});

export const searchSettingsBody = z.strictObject({
  dropThresholdPct: wholeNumber()
    .min(5, 'must be at least 5')
    .max(95, 'must be at most 95')
    .optional()
    .describe('percent fewer clicks in the last 7 days than the 7 before that alerts (5 to 95; default 30)'),
  dropMinClicks: wholeNumber()
    .min(0, 'must be 0 or more')
    .max(10_000_000, 'must be at most 10000000')
    .optional()
    .describe('clicks the 7 days before must have had for a fall to count (default 100)'),
});

export const searchAnalyticsQuery = z.strictObject({
  days: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_ANALYTICS_DAYS, `must be at most ${MAX_ANALYTICS_DAYS}`)
    .default(DEFAULT_ANALYTICS_DAYS)
    .describe(
      `days of the series, ending on the newest final day (1 to ${MAX_ANALYTICS_DAYS}, default ${DEFAULT_ANALYTICS_DAYS})`,
    ),
});

const week = (which: string) =>
  z
    .object({
      from: z.iso.date().describe('first day (YYYY-MM-DD)'),
      to: z.iso.date().describe('last day (YYYY-MM-DD)'),
      clicks: z.int().describe('clicks over the 7 days (days without data count as 0)'),
      impressions: z.int().describe('impressions over the 7 days'),
    })
    .describe(which);

export const searchAnalyticsResponse = z.object({
  property: z.string().describe('the connected Search Console property'),
  syncedAt: z.int().nullable().describe('the last analytics sync (epoch milliseconds)'),
  days: z.int().describe('days asked for (`?days=`)'),
  series: z
    .array(
      z.object({
        day: z.iso.date().describe('the day (YYYY-MM-DD; Search Console days are Pacific time)'),
        clicks: z.int().describe('clicks from Google web search'),
        impressions: z.int().describe('impressions in Google web search'),
        ctr: z.number().describe('clicks / impressions'),
        position: z.number().describe('average position'),
      }),
    )
    .describe('final days, oldest to newest; a day without impressions is absent'),
  comparison: z
    .object({
      last7: week('the last 7 final days'),
      previous7: week('the 7 days before those'),
      clicksChangePct: z
        .number()
        .nullable()
        .describe('change of clicks in percent, one decimal; null when the 7 days before had none'),
      impressionsChangePct: z
        .number()
        .nullable()
        .describe('change of impressions in percent, one decimal; null when the 7 days before had none'),
      drop: z.boolean().describe("the site's traffic-drop rule holds"),
    })
    .nullable()
    .describe('the last 7 final days against the 7 before; null before the first sync stored a day'),
});

export type SearchViewMatchesSchema = Holds<
  Same<SearchConnectionView, z.output<typeof searchConnectionResponse>>
>;
export type SearchAnalyticsMatchesSchema = Holds<
  Same<SearchAnalyticsReport, z.output<typeof searchAnalyticsResponse>>
>;
export type SearchPropertyMatchesSchema = Holds<Same<SearchProperty, z.output<typeof propertySchema>>>;
