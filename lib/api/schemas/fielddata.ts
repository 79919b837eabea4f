import { z } from 'zod';
import { FORM_FACTORS } from '@/lib/fielddata/metrics';
import type { FieldDataReport } from '@/lib/fielddata/report';
import type { Holds, Same } from './common';

/*
 * The Performance app (spec: Field performance data; GET /v1/sites/{id}/fielddata): real-user Core
 * Web Vitals from the CrUX History API, p75 per rolling 28-day window.
 */

export const fieldDataQuery = z.strictObject({
  formFactor: z
    .enum(FORM_FACTORS, { error: `must be one of ${FORM_FACTORS.join(', ')}` })
    .default('ALL')
    .describe('ALL (every device, the default), PHONE or DESKTOP'),
});

const p75 = (what: string) => z.number().nullable().describe(`${what}; null when the dataset has no value`);

export const fieldWindowSchema = z.object({
  periodEnd: z.iso.date().describe('last day of the 28-day collection window (YYYY-MM-DD)'),
  lcp: p75('Largest Contentful Paint p75, ms'),
  inp: p75('Interaction to Next Paint p75, ms'),
  cls: p75('Cumulative Layout Shift p75, unitless'),
  ttfb: p75('Time to First Byte p75, ms'),
});

const moved = (what: string, days: number) =>
  z.number().nullable().describe(`${what} now minus ${days} days back; null when either is missing`);
const movement = (days: number) =>
  z
    .object({
      lcp: moved('LCP p75 (ms)', days),
      inp: moved('INP p75 (ms)', days),
      cls: moved('CLS p75', days),
      ttfb: moved('TTFB p75 (ms)', days),
    })
    .describe(
      `latest minus the window closest to ${days} days back, per metric (positive: slower or shiftier); null when either side is missing`,
    );

export const fieldDataResponse = z.object({
  formFactor: z.enum(FORM_FACTORS).describe('ALL = all devices'),
  checkedAt: z.int().describe('the last field-data sync (epoch milliseconds)'),
  latest: fieldWindowSchema.describe('the newest window'),
  verdict: z
    .enum(['pass', 'fail'])
    .nullable()
    .describe(
      'pass: LCP p75 <= 2500 ms, INP p75 <= 200 ms and CLS p75 <= 0.1; fail otherwise; null when any is missing',
    ),
  deltas: z
    .object({ d7: movement(7), d28: movement(28) })
    .describe('movement of each metric against the windows closest to 7 and 28 days before the latest'),
  series: z.array(fieldWindowSchema).describe('weekly windows, oldest to newest'),
});

export const fieldDataSyncResponse = z.object({
  queued: z.literal(true).describe('the sync is queued; fielddata_checked_at moves when it has run'),
});

export type FieldDataReportMatchesSchema = Holds<Same<FieldDataReport, z.output<typeof fieldDataResponse>>>;
