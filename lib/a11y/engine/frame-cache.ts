/**
 * A run's cache of frame results: a frame whose document is the same as one already checked in the
 * run (same URL, same frame context, same fingerprint) reuses that frame's axe partial result
 * instead of running axe in it again. Real sites embed the same widgets on every page (a status
 * badge, a newsletter form, a map, a consent frame). On the benchmark's site (20 widgets across
 * 200 pages) this took the renderers' CPU from about 475 to 447 ms a page; not checking the frames
 * at all would have saved 50.
 *
 * Why reusing is sound: a frame's partial result depends on its own document only. axe in a frame
 * sees the frame's DOM, styles, layout and viewport, never the parent's (backgrounds end at the
 * frame's root, visibility at its viewport); the parent only names the frame, which `finishRun`
 * prefixes to every selector at merge time, after the cache. The fingerprint
 * (`FRAME_FINGERPRINT`) covers what axe reads there: the serialized DOM, the live state markup
 * does not show (form values, checked and selected options, focus, scroll), every style sheet's
 * rules (including ones a script changed or adopted), images' load state and sizes, fonts, and the
 * viewport. A frame whose result could depend on more is never cached: one with frames inside it
 * (their results are merged into its own), with shadow roots (the serialized DOM leaves them out),
 * or with audio or video (their playback state changes what axe reports).
 *
 * Scope: one run (one site of one tenant), held with the run's lanes (lib/a11y/engine/lane.ts) and
 * dropped with them; entries are bounded by `MAX_FRAME_CACHE_BYTES`.
 */

/** Bytes of partial results a run keeps (a small widget's is about 20 KB). */
const MAX_FRAME_CACHE_BYTES = 8 * 1024 * 1024;

export class FrameCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  /** The partial result (JSON text) stored under `key`, if any. */
  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  /** Stores a frame's partial result; the oldest entries go once the cache is full. */
  set(key: string, partial: string): void {
    if (partial.length > MAX_FRAME_CACHE_BYTES || this.entries.has(key)) return;
    this.entries.set(key, partial);
    this.bytes += partial.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= MAX_FRAME_CACHE_BYTES) break;
      this.entries.delete(oldest);
      this.bytes -= value.length;
    }
  }
}

/**
 * An expression evaluated in a frame's axe world: a fingerprint of everything axe reads in the
 * frame's document, or null when the frame must not be cached (see the module comment). Two
 * independent 53-bit hashes of the description, so the key stays short whatever the frame's size.
 */
export const FRAME_FINGERPRINT = `(() => {
  const root = document.documentElement;
  if (!root || document.querySelector('iframe, frame, object, embed, portal, fencedframe, audio, video')) return null;
  const elements = document.querySelectorAll('*');
  const parts = [
    location.href, innerWidth, innerHeight, devicePixelRatio, scrollX, scrollY,
    document.compatMode, document.visibilityState, document.hasFocus(), root.outerHTML,
  ];
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i];
    if (element.shadowRoot) return null;
    if (element === document.activeElement) parts.push('focus', i);
    if (element.scrollTop || element.scrollLeft) parts.push('scroll', i, element.scrollTop, element.scrollLeft);
  }
  for (const field of document.querySelectorAll('input, textarea, select, option')) {
    parts.push(field.value, field.checked, field.selected, field.indeterminate);
  }
  const rulesOf = (sheet) => {
    try {
      return [...sheet.cssRules].map((rule) => rule.cssText).join('\\n');
    } catch {
      return 'unreadable ' + sheet.href;
    }
  };
  for (const sheet of [...document.styleSheets, ...document.adoptedStyleSheets]) {
    parts.push(sheet.href, sheet.disabled, sheet.media.mediaText, rulesOf(sheet));
  }
  for (const image of document.images) {
    parts.push(image.currentSrc, image.complete, image.naturalWidth, image.naturalHeight);
  }
  parts.push(document.fonts.status);
  for (const font of document.fonts) parts.push(font.family, font.style, font.weight, font.status);
  const text = JSON.stringify(parts);
  const hash = (seed) => {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  return text.length + ':' + hash(1) + ':' + hash(2);
})()`;
