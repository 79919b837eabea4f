import { z } from 'zod';
import { siteNotFound } from '@/lib/api/errors';
import {
  MAX_EXCLUDE_PATHS,
  MAX_STRIP_PARAMS,
  validateExcludeGlob,
  validateExcludeList,
  validateStripParam,
} from '@/lib/crawl/engine/url';
import {
  CADENCE_CEILING_MINUTES,
  CADENCE_FLOOR_MINUTES,
  clampConcurrency,
  DEFAULT_A11Y_CADENCE_MINUTES,
  DEFAULT_CADENCE_MINUTES,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_MAX_PAGES,
  MAX_CONCURRENCY,
  MAX_PAGES_CEILING,
  MIN_CONCURRENCY,
} from '@/lib/sites/limits';
import { pathId, strictBoolean, wholeNumber } from './common';
import { parsedTargetUrl } from './target-url';

/** Path `{id}` of a site; a malformed id is the same 404 as an invisible site. */
export const siteIdParams = z.object({ id: pathId(siteNotFound).describe("the site's id") });

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
  scannerEnabled: strictBoolean().optional().describe('the Broken Links app; default true'),
  a11yEnabled: strictBoolean().optional().describe('the Accessibility app; default false'),
  seoEnabled: strictBoolean()
    .optional()
    .describe('the SEO app (checks extracted during the crawl); default true'),
  performanceEnabled: strictBoolean()
    .optional()
    .describe('the Performance app (Core Web Vitals field data); default true'),
  uptimeEnabled: strictBoolean().optional().describe('the Uptime app; default true'),
};

const excludePathsField = excludePaths
  .optional()
  .describe(
    `glob patterns of internal paths never crawled, on top of robots.txt (at most ${MAX_EXCLUDE_PATHS}; * and ? stay within a path segment, ** crosses them; without a leading / a pattern matches at any depth)`,
  );
const stripParamsField = stripParams
  .optional()
  .describe(`query-parameter names dropped from URLs before crawling (at most ${MAX_STRIP_PARAMS})`);

/** POST /v1/sites. Defaults are applied by the service, so they live next to the rules that use them. */
export const createSiteBody = z.strictObject({
  rootUrl: rootUrl.describe(
    'the http(s) URL the crawl starts from; its hostname becomes the crawl whitelist',
  ),
  cadenceMinutes: cadenceAtCreation()
    .optional()
    .describe(
      `minutes between scheduled crawls; default ${DEFAULT_CADENCE_MINUTES} (a week), at least ${CADENCE_FLOOR_MINUTES}`,
    ),
  maxPages: wholeNumber()
    .min(1, 'must be at least 1')
    .max(MAX_PAGES_CEILING, `must be at most ${MAX_PAGES_CEILING}`)
    .optional()
    .describe(`pages a crawl fetches at most; default ${DEFAULT_MAX_PAGES}; set at creation only`),
  /** Clamped into [2, 200], never refused (spec). */
  maxConcurrency: wholeNumber()
    .transform(clampConcurrency)
    .optional()
    .describe(
      `ceiling of the crawl's adaptive window; default ${DEFAULT_MAX_CONCURRENCY}, clamped into [${MIN_CONCURRENCY}, ${MAX_CONCURRENCY}]; set at creation only`,
    ),
  a11yCadenceMinutes: cadenceAtCreation()
    .optional()
    .describe(
      `minutes between accessibility scans, at least ${CADENCE_FLOOR_MINUTES}; defaults to ${DEFAULT_A11Y_CADENCE_MINUTES} (30 days) when the app is on`,
    ),
  ...appToggles,
  excludePaths: excludePathsField,
  stripParams: stripParamsField,
});
export type CreateSiteInput = z.output<typeof createSiteBody>;

/** PATCH /v1/sites/{id}: every field optional; omitted fields keep their value. */
export const updateSiteBody = z.strictObject({
  rootUrl: rootUrl.optional().describe('a new http(s) root URL; changes the crawl boundary'),
  /** Floor checked against the stored value by the service (`checkCadence`). */
  cadenceMinutes: cadenceMinutes()
    .optional()
    .describe(
      `minutes between scheduled crawls, at least ${CADENCE_FLOOR_MINUTES} (a site created below it may keep or slow its cadence)`,
    ),
  /** null: fall back to the crawl cadence. */
  a11yCadenceMinutes: cadenceMinutes()
    .nullable()
    .optional()
    .describe(
      `minutes between accessibility scans, at least ${CADENCE_FLOOR_MINUTES}; null: the crawl cadence`,
    ),
  ...appToggles,
  excludePaths: excludePathsField,
  stripParams: stripParamsField,
  maxPages: notEditable().describe('not editable: refused when present'),
  maxConcurrency: notEditable().describe('not editable: refused when present'),
});
export type UpdateSiteInput = z.output<typeof updateSiteBody>;
