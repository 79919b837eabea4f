import { z } from 'zod';

/**
 * The on-page SEO facts of one crawled page. They are stored as JSON next to the page row (a run
 * holds thousands of pages), so they keep only what the checks need: texts are capped, the images
 * without alt keep a few samples plus the true count, and lengths are measured before capping so
 * a long title is still judged on its real length.
 */
export const pageSeoFactsSchema = z.object({
  /** `<title>` text, whitespace collapsed; null when the document has no title element. */
  title: z.string().nullable(),
  /** Length in characters (Unicode code points) of the full title text, before capping. */
  titleLength: z.number().int().nonnegative(),
  /** `<meta name="description">` content, whitespace collapsed; null when there is no such tag. */
  description: z.string().nullable(),
  descriptionLength: z.number().int().nonnegative(),
  h1Count: z.number().int().nonnegative(),
  /** `<link rel="canonical">` href resolved to an absolute URL (the raw href if it cannot be). */
  canonical: z.string().nullable(),
  /** `<html lang>` value; null when absent or blank. */
  lang: z.string().nullable(),
  /** Where a noindex directive came from, or null when the page may be indexed. */
  noindex: z.enum(['meta', 'x-robots-tag']).nullable(),
  /** A `<meta name="viewport">` with non-empty content exists. */
  viewport: z.boolean(),
  /** How many `<img>` elements have no alt attribute at all. */
  imagesWithoutAltCount: z.number().int().nonnegative(),
  /** The first few of them, to point at in the report. */
  imagesWithoutAlt: z.array(z.object({ src: z.string().nullable(), selector: z.string().nullable() })),
});

export type PageSeoFacts = z.infer<typeof pageSeoFactsSchema>;
export type ImageWithoutAlt = PageSeoFacts['imagesWithoutAlt'][number];

/** Longest title or description text kept in the stored facts (lengths are kept separately). */
export const MAX_STORED_TEXT = 300;
/** Longest image src kept; inline `data:` URIs can weigh megabytes. */
export const MAX_STORED_SRC = 200;
/** Images without alt listed per page; the count still covers all of them. */
export const MAX_IMAGE_SAMPLES = 10;

/**
 * Reads facts back from stored JSON. Returns null for anything that does not match the current
 * shape, so one malformed row degrades to "not scanned" instead of failing a whole report.
 */
export function parseStoredSeoFacts(json: unknown): PageSeoFacts | null {
  const parsed = pageSeoFactsSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
