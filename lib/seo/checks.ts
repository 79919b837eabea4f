import { parseUrl } from '@/lib/net/url';
import type { PageSeoFacts } from './facts';

export type SeoImpact = 'critical' | 'serious' | 'moderate' | 'minor';

/** Most severe first; reports and counters follow this order. */
export const SEO_IMPACTS: readonly SeoImpact[] = ['critical', 'serious', 'moderate', 'minor'];

/**
 * Thresholds, in characters (Unicode code points):
 * - Titles: Google shows about 600 pixels of a title on desktop, which is 50-60 characters of
 *   ordinary text; past 60 the end is usually replaced by an ellipsis.
 * - Descriptions: snippets are cut at about 920 pixels, roughly 155-160 characters; below about
 *   70 characters a description says too little and search engines tend to substitute page text.
 */
export const TITLE_MAX_LENGTH = 60;
export const DESCRIPTION_MIN_LENGTH = 70;
export const DESCRIPTION_MAX_LENGTH = 160;

/**
 * Impacts follow what a problem costs the page in search:
 * - critical: the page cannot be represented correctly at all (no title; a canonical that sends
 *   search engines to a dead URL);
 * - serious: the page is kept out of search or judged unfit for mobile-first indexing;
 * - moderate: the page appears, but weaker signals cost ranking or click-through;
 * - minor: polish that improves presentation or removes ambiguity.
 */
export const SEO_CHECKS = [
  {
    id: 'title-missing',
    impact: 'critical',
    title: 'Missing page title',
    help: 'Search results use the title as the page headline and a key clue to its topic; add a unique, descriptive <title> in the <head>.',
  },
  {
    id: 'canonical-broken',
    impact: 'critical',
    title: 'Canonical URL is broken',
    help: 'A canonical pointing at a dead URL asks search engines to index a page that does not exist, which can drop this page from results; point it at a live URL, usually the page itself.',
  },
  {
    id: 'noindex',
    impact: 'serious',
    title: 'Page is excluded from search (noindex)',
    help: 'A noindex directive (meta robots or X-Robots-Tag header) keeps the page out of search results; remove it unless the page is meant to stay unlisted.',
  },
  {
    id: 'viewport-missing',
    impact: 'serious',
    title: 'Missing viewport meta tag',
    help: 'Without a viewport tag phones render the page at desktop width, and search engines index the mobile rendering; add <meta name="viewport" content="width=device-width, initial-scale=1">.',
  },
  {
    id: 'title-duplicate',
    impact: 'moderate',
    title: 'Title shared with other pages',
    help: 'Pages with the same title compete with each other and look identical in results; give each page a title that says what sets it apart.',
  },
  {
    id: 'description-missing',
    impact: 'moderate',
    title: 'Missing meta description',
    help: 'Without a meta description search engines improvise a snippet from page text, which often reads poorly; add a <meta name="description"> summarising the page in 70-160 characters.',
  },
  {
    id: 'h1-missing',
    impact: 'moderate',
    title: 'Missing h1 heading',
    help: 'The main heading tells readers and search engines what the page is about; add one <h1> stating the topic of the page.',
  },
  {
    id: 'canonical-redirect',
    impact: 'moderate',
    title: 'Canonical URL redirects',
    help: 'A canonical that redirects sends mixed signals and may be ignored; point it at the final URL of the redirect.',
  },
  {
    id: 'img-alt-missing',
    impact: 'moderate',
    title: 'Images without alt attribute',
    help: 'Image search and screen readers rely on alt text to know what an image shows; describe each image in its alt attribute, or use alt="" for purely decorative ones.',
  },
  {
    id: 'redirect-only',
    impact: 'moderate',
    title: 'Page reached only through redirects',
    help: 'Every link the crawler followed to this page went through a redirect, which wastes crawl budget and slows visitors down; point internal links straight at this URL.',
  },
  {
    id: 'title-too-long',
    impact: 'minor',
    title: 'Title too long',
    help: 'Search results cut titles after about 60 characters, hiding the end; put the important words first and keep it to 60 characters or fewer.',
  },
  {
    id: 'description-length',
    impact: 'minor',
    title: 'Meta description too short or too long',
    help: 'Descriptions under 70 characters say too little and are often replaced, and those over 160 are cut off; rewrite it to 70-160 characters.',
  },
  {
    id: 'description-duplicate',
    impact: 'minor',
    title: 'Meta description shared with other pages',
    help: 'A description shared by several pages does not help searchers tell them apart; write one for each page about its own content.',
  },
  {
    id: 'h1-multiple',
    impact: 'minor',
    title: 'Several h1 headings',
    help: 'Several top-level headings blur what the page is mainly about and muddle its outline; keep one <h1> and demote the others to <h2>.',
  },
  {
    id: 'canonical-missing',
    impact: 'minor',
    title: 'Missing canonical link',
    help: 'Without a canonical link search engines guess which URL variant (parameters, trailing slash, http or https) to index; add <link rel="canonical"> naming the preferred URL, even when it is the page itself.',
  },
  {
    id: 'lang-missing',
    impact: 'minor',
    title: 'Missing html lang attribute',
    help: 'The lang attribute tells search engines and screen readers which language the page is in; add it to the root element, for example <html lang="en">.',
  },
] as const satisfies readonly { id: string; impact: SeoImpact; title: string; help: string }[];

export type SeoCheck = (typeof SEO_CHECKS)[number];
export type SeoCheckId = SeoCheck['id'];

const CHECKS_BY_ID = new Map<SeoCheckId, SeoCheck>(SEO_CHECKS.map((check) => [check.id, check]));

/** Narrows a check id read back from storage (a stored report is plain JSON). */
export function isSeoCheckId(value: string): value is SeoCheckId {
  return CHECKS_BY_ID.has(value as SeoCheckId);
}

export function isSeoImpact(value: string): value is SeoImpact {
  return (SEO_IMPACTS as readonly string[]).includes(value);
}

export function seoCheck(id: SeoCheckId): SeoCheck {
  // Every SeoCheckId comes from SEO_CHECKS, so the lookup cannot miss.
  return CHECKS_BY_ID.get(id)!;
}

export interface SeoIssue {
  check: SeoCheckId;
  impact: SeoImpact;
  pageUrl: string;
  /** Plain words, e.g. "Title is 74 characters (limit 60)". */
  detail: string;
  /** The measured value behind the detail: a length, a count, a URL. */
  value?: string | number;
}

export interface SeoPage {
  url: string;
  facts: PageSeoFacts;
  /** Every link the crawler followed to this page went through a redirect. */
  reachedOnlyViaRedirect?: boolean;
}

export interface TargetResolution {
  state: 'ok' | 'broken' | 'redirect' | 'unknown';
  finalUrl?: string;
  statusCode?: number | null;
}

/** What the crawl learned about a URL (a canonical target); `unknown` when it never fetched it. */
export type ResolveTarget = (url: string) => TargetResolution;

/**
 * Turns the stored facts of a run's pages into issues, one per (page, check), in page order and
 * then catalogue order.
 *
 * Duplicate titles and descriptions are compared case-insensitively with whitespace collapsed,
 * and every page of a group gets its own issue naming how many other pages share the text.
 * Pages that do not compete in search are left out of those groups:
 * - noindex pages, which search engines drop anyway (they get the noindex issue instead);
 * - pages whose canonical names another URL: they declare themselves a variant of that URL, so
 *   sharing its title is expected.
 * All other checks apply to every page, noindex or not, because the page is still served.
 *
 * `resolveTarget` is asked once per distinct canonical URL; a canonical naming the page itself is
 * known to be live (the crawler just fetched it) and is not asked about.
 *
 * A run too large to hold at once goes through the same two steps this function takes, a page of
 * rows at a time: every page into a DuplicateIndex, then pageSeoIssues page by page.
 */
export function deriveSeoIssues(pages: readonly SeoPage[], resolveTarget: ResolveTarget): SeoIssue[] {
  const uniquePages = dedupeByUrl(pages);
  const duplicates = new DuplicateIndex();
  for (const page of uniquePages) duplicates.add(page);
  const resolveOnce = memoize(resolveTarget);
  return uniquePages.flatMap((page) => pageSeoIssues(page, duplicates, resolveOnce));
}

/** What duplicate detection reads of a page. */
export interface DuplicateCandidate {
  url: string;
  facts: Pick<PageSeoFacts, 'title' | 'description' | 'noindex' | 'canonical'>;
}

/** Competing pages that carry one text: how many, and the first two in the order they were added. */
interface TextGroup {
  count: number;
  first: string;
  second: string | undefined;
}

/**
 * Duplicate titles and descriptions across a run's pages, indexed one page at a time. It keeps a
 * count and two URLs per distinct text, never a list of pages, so a template-wide title shared by
 * thousands of pages costs one entry. Pages are added once each, in the order the report lists
 * them: the first page of a group is the example the others name.
 */
export class DuplicateIndex {
  private readonly groups = {
    title: new Map<string, TextGroup>(),
    description: new Map<string, TextGroup>(),
  };

  add(page: DuplicateCandidate): void {
    if (!competesInSearch(page)) return;
    for (const kind of ['title', 'description'] as const) {
      const key = duplicateKey(page.facts[kind]);
      if (key === null) continue;
      const group = this.groups[kind].get(key);
      if (!group) this.groups[kind].set(key, { count: 1, first: page.url, second: undefined });
      else {
        group.count++;
        group.second ??= page.url;
      }
    }
  }

  /** The page's place in its group, or null when no other competing page shares its text. */
  shared(kind: 'title' | 'description', page: DuplicateCandidate): SharedText | null {
    const key = duplicateKey(page.facts[kind]);
    const group = key === null ? undefined : this.groups[kind].get(key);
    if (!group) return null;
    const example = group.first === page.url ? group.second : group.first;
    // Asked last: it parses URLs, and most texts are not shared at all.
    if (example === undefined || !competesInSearch(page)) return null;
    return { others: group.count - 1, example };
  }
}

/** One page's issues, in catalogue order; `duplicates` must already hold every page of the run. */
export function pageSeoIssues(
  page: SeoPage,
  duplicates: DuplicateIndex,
  resolveTarget: ResolveTarget,
): SeoIssue[] {
  const issues: SeoIssue[] = [];
  const add = (check: SeoCheckId, detail: string, value?: string | number) => {
    const issue: SeoIssue = { check, impact: seoCheck(check).impact, pageUrl: page.url, detail };
    if (value !== undefined) issue.value = value;
    issues.push(issue);
  };
  const { facts } = page;

  if (!facts.title) {
    add('title-missing', facts.title === null ? 'The page has no <title> element' : 'The <title> is empty');
  } else if (facts.titleLength > TITLE_MAX_LENGTH) {
    add(
      'title-too-long',
      `Title is ${facts.titleLength} characters (limit ${TITLE_MAX_LENGTH})`,
      facts.titleLength,
    );
  }
  const sharedTitle = duplicates.shared('title', page);
  if (sharedTitle) add('title-duplicate', sharedDetail('Title', sharedTitle), sharedTitle.others);

  if (!facts.description) {
    add(
      'description-missing',
      facts.description === null ? 'The page has no meta description' : 'The meta description is empty',
    );
  } else if (
    facts.descriptionLength < DESCRIPTION_MIN_LENGTH ||
    facts.descriptionLength > DESCRIPTION_MAX_LENGTH
  ) {
    const side =
      facts.descriptionLength < DESCRIPTION_MIN_LENGTH
        ? `minimum ${DESCRIPTION_MIN_LENGTH}`
        : `limit ${DESCRIPTION_MAX_LENGTH}`;
    add(
      'description-length',
      `Meta description is ${facts.descriptionLength} characters (${side})`,
      facts.descriptionLength,
    );
  }
  const sharedDescription = duplicates.shared('description', page);
  if (sharedDescription) {
    add(
      'description-duplicate',
      sharedDetail('Meta description', sharedDescription),
      sharedDescription.others,
    );
  }

  if (facts.h1Count === 0) add('h1-missing', 'The page has no <h1> heading', 0);
  if (facts.h1Count > 1) add('h1-multiple', `The page has ${facts.h1Count} <h1> headings`, facts.h1Count);

  if (facts.canonical === null) {
    add('canonical-missing', 'The page has no <link rel="canonical">');
  } else {
    const problem = canonicalProblem(facts.canonical, page.url, resolveTarget);
    if (problem) add(problem.check, problem.detail, facts.canonical);
  }

  if (facts.lang === null) add('lang-missing', 'The <html> element has no lang attribute');

  if (facts.noindex !== null) {
    const source = facts.noindex === 'meta' ? 'A robots meta tag' : 'The X-Robots-Tag header';
    add('noindex', `${source} says noindex`, facts.noindex);
  }

  if (!facts.viewport) add('viewport-missing', 'The page has no viewport meta tag');

  if (facts.imagesWithoutAltCount > 0) {
    add('img-alt-missing', imagesDetail(facts), facts.imagesWithoutAltCount);
  }

  if (page.reachedOnlyViaRedirect) {
    add('redirect-only', 'Every link to this page that the crawler followed went through a redirect');
  }

  return issues;
}

/** The crawler should hand each page over once; if it does not, the first copy wins. */
function dedupeByUrl(pages: readonly SeoPage[]): SeoPage[] {
  const seen = new Set<string>();
  return pages.filter((page) => !seen.has(page.url) && seen.add(page.url));
}

function duplicateKey(text: string | null): string | null {
  const key = text?.replace(/\s+/g, ' ').trim().toLowerCase();
  return key ? key : null;
}

function competesInSearch(page: DuplicateCandidate): boolean {
  if (page.facts.noindex !== null) return false;
  const canonical = page.facts.canonical;
  return canonical === null || sameUrl(canonical, page.url);
}

interface SharedText {
  /** How many other pages carry the same text. */
  others: number;
  /** One of them, to name in the detail. */
  example: string;
}

function sharedDetail(what: string, shared: SharedText): string {
  const count = shared.others === 1 ? '1 other page' : `${shared.others} other pages`;
  return `${what} is shared with ${count}, e.g. ${shared.example}`;
}

function imagesDetail(facts: PageSeoFacts): string {
  const count = facts.imagesWithoutAltCount;
  const noun = count === 1 ? '1 image has' : `${count} images have`;
  const first = facts.imagesWithoutAlt[0];
  if (!first) return `${noun} no alt attribute`;
  const where = first.selector === null ? '' : ` (${first.selector})`;
  return `${noun} no alt attribute, first: ${first.src ?? 'no src'}${where}`;
}

function canonicalProblem(
  canonical: string,
  pageUrl: string,
  resolve: ResolveTarget,
): { check: 'canonical-broken' | 'canonical-redirect'; detail: string } | null {
  const parsed = parseUrl(canonical);
  if (!parsed) return { check: 'canonical-broken', detail: `Canonical "${canonical}" is not a valid URL` };
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { check: 'canonical-broken', detail: `Canonical ${canonical} is not a web address` };
  }
  if (sameUrl(canonical, pageUrl)) return null;

  const target = resolve(canonical);
  if (target.state === 'broken') {
    const outcome = target.statusCode != null ? `answers HTTP ${target.statusCode}` : 'could not be fetched';
    return { check: 'canonical-broken', detail: `Canonical ${canonical} ${outcome}` };
  }
  if (target.state === 'redirect') {
    const where = target.finalUrl ? ` to ${target.finalUrl}` : '';
    return { check: 'canonical-redirect', detail: `Canonical ${canonical} redirects${where}` };
  }
  return null;
}

/** Same resource: fragments never reach the server, so they do not make a different URL. */
function sameUrl(a: string, b: string): boolean {
  const left = parseUrl(a);
  const right = parseUrl(b);
  if (!left || !right) return a === b;
  left.hash = '';
  right.hash = '';
  return left.href === right.href;
}

function memoize(resolve: ResolveTarget): ResolveTarget {
  const cache = new Map<string, TargetResolution>();
  return (url) => {
    let result = cache.get(url);
    if (!result) {
      result = resolve(url);
      cache.set(url, result);
    }
    return result;
  };
}
