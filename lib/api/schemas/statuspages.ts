import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import { INCIDENT_IMPACTS, INCIDENT_UPDATE_STATUSES } from '@/lib/db/schema';
import { INCIDENT_NOT_FOUND, type PageIncidentView } from '@/lib/statuspages/incidents';
import {
  MAX_INCIDENT_TITLE,
  MAX_PAGE_MONITORS,
  MAX_STATUS_PAGES_LIST,
  MAX_UPDATE_MESSAGE,
} from '@/lib/statuspages/limits';
import { INCIDENT_DAYS } from '@/lib/statuspages/public';
import type { StatusPageView } from '@/lib/statuspages/resource';
import { STATUS_PAGE_NOT_FOUND } from '@/lib/statuspages/service';
import { slugProblem } from '@/lib/statuspages/slug';
import { type Holds, pathId, type Same, strictBoolean } from './common';
import { queryInt } from './history';

/** Path `{id}` of a status page. A malformed id names no page: the same 404 as an unknown one. */
export const statusPageIdParams = z.object({
  id: pathId(() => notFound(STATUS_PAGE_NOT_FOUND)).describe("the status page's id"),
});

const slug = z
  .string()
  .superRefine((value, ctx) => {
    const problem = slugProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    'the public address /status/{slug}: 3-63 lowercase letters, digits and inner hyphens; unique across the service',
  );
const title = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .describe("the page's heading (1-100 characters)");
const description = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  .nullish()
  .transform((value) => (value ? value : null))
  .describe('a line under the title (at most 500 characters); empty or null: none');
const monitorIds = z
  .array(z.uuid('must be monitor ids (UUIDs)'))
  .min(1, 'must list at least one monitor')
  .max(MAX_PAGE_MONITORS, `must list at most ${MAX_PAGE_MONITORS} monitors`)
  .refine(
    (ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length,
    'must not list a monitor twice',
  )
  .describe(
    `the uptime monitors the page shows, in order (1-${MAX_PAGE_MONITORS}, monitors of the organization)`,
  );
const options = {
  published: strictBoolean().describe('false: the public page answers 404 like an unknown slug'),
  showA11yScore: strictBoolean().describe("show each listed monitor's site accessibility score"),
  showBrokenLinks: strictBoolean().describe(
    "show each listed monitor's site broken-link count (latest crawl)",
  ),
  showMonitorUrls: strictBoolean().describe("show each listed monitor's URL (otherwise only its name)"),
};

export const createStatusPageBody = z.strictObject({
  slug,
  title,
  monitorIds,
  description: description.optional(),
  published: options.published.default(true).describe('default true'),
  showA11yScore: options.showA11yScore
    .default(false)
    .describe(`${options.showA11yScore.description}; default false`),
  showBrokenLinks: options.showBrokenLinks
    .default(false)
    .describe(`${options.showBrokenLinks.description}; default false`),
  showMonitorUrls: options.showMonitorUrls
    .default(false)
    .describe(`${options.showMonitorUrls.description}; default false`),
});
export type CreateStatusPageInput = z.output<typeof createStatusPageBody>;

export const updateStatusPageBody = z.strictObject({
  slug: slug.optional(),
  title: title.optional(),
  monitorIds: monitorIds.optional(),
  description: description.optional(),
  published: options.published.optional(),
  showA11yScore: options.showA11yScore.optional(),
  showBrokenLinks: options.showBrokenLinks.optional(),
  showMonitorUrls: options.showMonitorUrls.optional(),
});
export type UpdateStatusPageInput = z.output<typeof updateStatusPageBody>;

export const listStatusPagesQuery = z.object({
  limit: queryInt(1, MAX_STATUS_PAGES_LIST)
    .optional()
    .describe(`pages per answer, default ${MAX_STATUS_PAGES_LIST}`),
  cursor: z.string().max(4096).optional().describe('nextCursor of the previous answer; omitted: the first'),
});

export const statusPageSchema = z
  .object({
    id: z.uuid().describe("the page's id"),
    slug: z.string().describe('its public address is /status/{slug}'),
    title: z.string().describe("the page's heading"),
    description: z.string().nullable().describe('the line under the title; null: none'),
    url: z.string().describe('the public page, absolute'),
    badgeUrl: z.string().describe('the SVG status badge, absolute (for the embed snippet)'),
    monitorIds: z.array(z.uuid()).describe('the listed monitors, in the order the page shows them'),
    published: z.boolean().describe('false: the public page answers 404 like an unknown slug'),
    showA11yScore: z.boolean().describe("the page shows each listed monitor's site accessibility score"),
    showBrokenLinks: z.boolean().describe("the page shows each listed monitor's site broken-link count"),
    showMonitorUrls: z.boolean().describe("the page shows each listed monitor's URL"),
    createdAt: z.int().describe('epoch milliseconds'),
    updatedAt: z.int().describe('epoch milliseconds'),
    subscriberCount: z
      .int()
      .describe(
        'visitors who subscribed to the page by email and confirmed their address; who they are is never shown',
      ),
  })
  .meta({ id: 'StatusPage', description: 'A public status page of the organization' });
export type _StatusPageMatches = Holds<Same<z.output<typeof statusPageSchema>, StatusPageView>>;

export const statusPageResponse = z.object({ statusPage: statusPageSchema.describe('the status page') });
export const listStatusPagesResponse = z.object({
  statusPages: z.array(statusPageSchema).describe('newest first'),
  nextCursor: z.string().nullable().describe('pass as ?cursor= for the next answer; null on the last'),
});
export const statusPageDeletedResponse = z.object({
  deleted: z.literal(true).describe('the page is gone and its slug is free'),
});

/** Path `{id}/incidents/{incidentId}`: a malformed incident id is the same 404 as an unknown one. */
export const pageIncidentParams = z.object({
  id: statusPageIdParams.shape.id,
  incidentId: pathId(() => notFound(INCIDENT_NOT_FOUND)).describe(
    "the incident's id: a listed monitor's incident, or one of the page's manual incidents",
  ),
});

const updateStatus = z
  .enum(INCIDENT_UPDATE_STATUSES, {
    error: `must be one of ${INCIDENT_UPDATE_STATUSES.join(', ')}`,
  })
  .describe(
    'where the incident stands: investigating, identified, monitoring, resolved (resolved closes a manual incident)',
  );
const message = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_UPDATE_MESSAGE, `must be at most ${MAX_UPDATE_MESSAGE} characters`)
  .describe(
    `what the visitors are told (1-${MAX_UPDATE_MESSAGE} characters of plain text; blank lines separate paragraphs)`,
  );

export const incidentUpdateBody = z.strictObject({ status: updateStatus, message });

export const manualIncidentBody = z.strictObject({
  title: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_INCIDENT_TITLE, `must be at most ${MAX_INCIDENT_TITLE} characters`)
    .describe(`what is wrong, as the page names it (1-${MAX_INCIDENT_TITLE} characters)`),
  status: updateStatus,
  message,
  impact: z
    .enum(INCIDENT_IMPACTS, { error: `must be one of ${INCIDENT_IMPACTS.join(', ')}` })
    .default('degraded')
    .describe(
      "while open, the page's headline is at least this: degraded, partial_outage, major_outage; none leaves it (a notice); default degraded",
    ),
});

const incidentUpdateSchema = z
  .object({
    id: z.uuid().describe("the update's id"),
    status: z.enum(INCIDENT_UPDATE_STATUSES).describe('where the incident stood, as this update says'),
    message: z.string().describe('what the visitors were told'),
    createdAt: z.int().describe('epoch milliseconds'),
  })
  .meta({
    id: 'StatusPageIncidentUpdate',
    description: 'An update posted on a status page about an incident',
  });

export const pageIncidentSchema = z
  .object({
    id: z.uuid().describe("the incident's id (the monitor incident's own id for kind monitor)"),
    kind: z
      .enum(['monitor', 'manual'])
      .describe(
        "monitor: a listed monitor's consensus incident, shown by itself; manual: opened on the page",
      ),
    title: z.string().describe("a manual incident's title; for a monitor's, its name and cause"),
    status: z
      .enum(INCIDENT_UPDATE_STATUSES)
      .nullable()
      .describe('resolved once closed, else the latest update\u2019s status; null: no update yet'),
    impact: z
      .enum(INCIDENT_IMPACTS)
      .nullable()
      .describe("a manual incident's effect on the headline; null for a monitor's"),
    monitorId: z.uuid().nullable().describe('the monitor, for kind monitor; null for a manual incident'),
    cause: z
      .string()
      .nullable()
      .describe("a monitor incident's cause (dns, tls, timeout, ...); null for manual"),
    startedAt: z.int().describe('epoch milliseconds'),
    resolvedAt: z.int().nullable().describe('epoch milliseconds; null while ongoing'),
    updates: z.array(incidentUpdateSchema).describe('posted on this page, newest first'),
  })
  .meta({ id: 'StatusPageIncident', description: 'An incident a status page shows, with its updates' });
export type _PageIncidentMatches = Holds<Same<z.output<typeof pageIncidentSchema>, PageIncidentView>>;

export const pageIncidentResponse = z.object({ incident: pageIncidentSchema.describe('the incident') });
export const listPageIncidentsResponse = z.object({
  incidents: z
    .array(pageIncidentSchema)
    .describe(`the page's incidents of the last ${INCIDENT_DAYS} days and every ongoing one, newest first`),
});
