import { z } from 'zod';
import { siteNotFound } from '@/lib/api/errors';
import {
  MAX_EXCLUDE_PATHS,
  MAX_STRIP_PARAMS,
  validateExcludeGlob,
  validateExcludeList,
  validateStripParam,
} from '@/lib/crawl/url';
import {
  CADENCE_CEILING_MINUTES,
  CADENCE_FLOOR_MINUTES,
  clampConcurrency,
  MAX_PAGES_CEILING,
} from '@/lib/sites/limits';
import { pathId, strictBoolean, wholeNumber } from './common';
import { parsedTargetUrl } from './target-url';

/** Path `{id}` of a site; a malformed id is the same 404 as an invisible site. */
export const siteIdParams = z.object({ id: pathId(siteNotFound) });

/** `rootUrl`, checked and split into the stored URL and the crawl whitelist hostname. */
const rootUrl = parsedTargetUrl;

/** A cadence within the ceiling; the floor is applied by the caller (creation and edit differ). */
const cadenceMinutes = () =>
  wholeNumber()
    .min(1, 'must be a positive number of minutes')
    .max(CADENCE_CEILING_MINUTES, `must be at most ${CADENCE_CEILING_MINUTES} (a year)`);

const cadenceAtCreation = () =>
  wholeNumber()
    .min(CADENCE_FLOOR_MINUTES, `must be at least ${CADENCE_FLOOR_MINUTES}`)
    .max(CADENCE_CEILING_MINUTES, `must be at most ${CADENCE_CEILING_MINUTES} (a year)`);

/** A list of at most `max` strings, each checked by `validate`; trimmed and de-duplicated in order. */
function patternList(max: number, validate: (value: string) => string | null, trim: boolean) {
  return z
    .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
    .max(max, `must have at most ${max} entries`)
    .superRefine((values, ctx) => {
      values.forEach((value, i) => {
        const problem = validate(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [i], input: value });
      });
    })
    .transform((values) => [...new Set(trim ? values.map((v) => v.trim()) : values)]);
}

/** Glob patterns for internal paths never crawled (see `compileExcludes` for how they match). */
const excludePaths = patternList(MAX_EXCLUDE_PATHS, validateExcludeGlob, true).superRefine((globs, ctx) => {
  const problem = validateExcludeList(globs);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: globs });
});
/** Query-parameter names dropped before URLs enter the frontier (matched exactly, so not trimmed). */
const stripParams = patternList(MAX_STRIP_PARAMS, validateStripParam, false);

/** Present in a PATCH body at all, whatever the value: refused, naming the field. */
const notEditable = () =>
  z
    .unknown()
    .refine(() => false, { error: 'not editable: it is set when the site is created' })
    .optional();

const appToggles = {
  scannerEnabled: strictBoolean().optional(),
  a11yEnabled: strictBoolean().optional(),
  seoEnabled: strictBoolean().optional(),
  performanceEnabled: strictBoolean().optional(),
  uptimeEnabled: strictBoolean().optional(),
};

/** POST /v1/sites. Defaults are applied by the service, so they live next to the rules that use them. */
export const createSiteBody = z.strictObject({
  rootUrl,
  cadenceMinutes: cadenceAtCreation().optional(),
  maxPages: wholeNumber()
    .min(1, 'must be at least 1')
    .max(MAX_PAGES_CEILING, `must be at most ${MAX_PAGES_CEILING}`)
    .optional(),
  /** Clamped into [2, 200], never refused (spec). */
  maxConcurrency: wholeNumber().transform(clampConcurrency).optional(),
  a11yCadenceMinutes: cadenceAtCreation().optional(),
  ...appToggles,
  excludePaths: excludePaths.optional(),
  stripParams: stripParams.optional(),
});
export type CreateSiteInput = z.output<typeof createSiteBody>;

/** PATCH /v1/sites/{id}: every field optional; omitted fields keep their value. */
export const updateSiteBody = z.strictObject({
  rootUrl: rootUrl.optional(),
  /** Floor checked against the stored value by the service (`checkCadence`). */
  cadenceMinutes: cadenceMinutes().optional(),
  /** null: fall back to the crawl cadence. */
  a11yCadenceMinutes: cadenceMinutes().nullable().optional(),
  ...appToggles,
  excludePaths: excludePaths.optional(),
  stripParams: stripParams.optional(),
  maxPages: notEditable(),
  maxConcurrency: notEditable(),
});
export type UpdateSiteInput = z.output<typeof updateSiteBody>;
