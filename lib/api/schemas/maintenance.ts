import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import { MAX_WINDOW_MONITORS, MAX_WINDOW_TITLE_LENGTH, MAX_WINDOWS_LIST } from '@/lib/uptime/limits';
import { type MaintenanceWindowView, WINDOW_NOT_FOUND } from '@/lib/uptime/maintenance-windows';
import { type Holds, pathId, type Same } from './common';
import { queryInt } from './history';
import { siteIdParams } from './sites';

/*
 * Maintenance windows of a site (README.md, "Maintenance windows"): requests and responses. The
 * rules that depend on the clock (not in the past, at most 7 days, within a year) are the service's
 * (lib/uptime/maintenance-windows.ts), which answers them as 422s naming the field, like these.
 */

export const maintenanceWindowIdParams = siteIdParams.extend({
  windowId: pathId(() => notFound(WINDOW_NOT_FOUND)).describe("the maintenance window's id"),
});

/** An instant: epoch milliseconds, or an ISO 8601 date-time with its offset (`2026-12-01T02:00:00Z`). */
const instant = () =>
  z
    .union([
      z.int({ error: 'must be epoch milliseconds or an ISO 8601 date-time' }).min(0),
      z.iso
        .datetime({
          offset: true,
          error: 'must be epoch milliseconds or an ISO 8601 date-time with its offset',
        })
        .transform((value) => Date.parse(value)),
    ])
    .describe('epoch milliseconds, or an ISO 8601 date-time with its offset');

const title = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_WINDOW_TITLE_LENGTH, `must be at most ${MAX_WINDOW_TITLE_LENGTH} characters`)
  .describe(`what the work is, shown on status pages (1-${MAX_WINDOW_TITLE_LENGTH} characters)`);

const monitorIds = z
  .array(z.uuid('must be monitor ids (UUIDs)'))
  .min(1, 'must list at least one monitor (omit it to cover every monitor of the site)')
  .max(MAX_WINDOW_MONITORS, `must list at most ${MAX_WINDOW_MONITORS} monitors`)
  .refine(
    (ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length,
    'must not list a monitor twice',
  );

export const createMaintenanceWindowBody = z.strictObject({
  title,
  startsAt: instant().describe(
    'when the work begins: now or later (up to 5 minutes ago starts now), within a year',
  ),
  endsAt: instant().describe('when it ends: after startsAt, at most 7 days later'),
  monitorIds: monitorIds
    .optional()
    .describe('the monitors of this site it covers; omitted: every monitor of the site, later ones too'),
});
export type CreateMaintenanceWindowInput = z.output<typeof createMaintenanceWindowBody>;

export const updateMaintenanceWindowBody = z.strictObject({
  title: title.optional(),
  startsAt: instant()
    .optional()
    .describe('a new start, while the window has not begun (the same rules as on creation)'),
  endsAt: instant()
    .optional()
    .describe('a new end: after startsAt, at most 7 days later; under way, now at the earliest (ends it)'),
  monitorIds: monitorIds
    .nullable()
    .optional()
    .describe('replaces the list; null: every monitor of the site, later ones too'),
});

export const listMaintenanceWindowsQuery = z.object({
  state: z
    .enum(['upcoming', 'active', 'past'])
    .optional()
    .describe('only windows in this state now; omitted: all, latest start first'),
  limit: queryInt(1, MAX_WINDOWS_LIST).optional().describe(`windows per answer, default ${MAX_WINDOWS_LIST}`),
  cursor: z.string().max(4096).optional().describe('nextCursor of the previous answer; omitted: the first'),
});

export const maintenanceWindowSchema = z
  .object({
    id: z.uuid().describe("the window's id"),
    siteId: z.uuid().describe('the site whose monitors it covers'),
    title: z.string().describe('what the work is'),
    startsAt: z.int().describe('epoch milliseconds'),
    endsAt: z.int().describe('epoch milliseconds'),
    state: z
      .enum(['upcoming', 'active', 'past'])
      .describe('at the time of the answer: not begun, under way, or over'),
    allMonitors: z
      .boolean()
      .describe('true: it covers every monitor of the site, including monitors added later'),
    monitorIds: z.array(z.uuid()).describe('the monitors it covers now, oldest first'),
    createdAt: z.int().describe('epoch milliseconds'),
    updatedAt: z.int().describe('epoch milliseconds'),
  })
  .meta({
    id: 'MaintenanceWindow',
    description:
      'Announced work on a site: its monitors are probed, but a failure opens no incident, alerts nobody and costs no uptime',
  });
export type _MaintenanceWindowMatches = Holds<
  Same<z.output<typeof maintenanceWindowSchema>, MaintenanceWindowView>
>;

export const maintenanceWindowResponse = z.object({
  maintenanceWindow: maintenanceWindowSchema.describe('the maintenance window'),
});
export const listMaintenanceWindowsResponse = z.object({
  maintenanceWindows: z
    .array(maintenanceWindowSchema)
    .describe('upcoming and active: soonest first; past and unfiltered: latest start first'),
  nextCursor: z.string().nullable().describe('pass as ?cursor= for the next answer; null on the last'),
});
export const maintenanceWindowDeletedResponse = z.object({
  deleted: z.literal(true).describe('the window is gone; its time counts again like any other'),
});
