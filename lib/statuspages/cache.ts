import type { Db } from '@/lib/db/client';
import { type PageFingerprint, pageFingerprint } from './fingerprint';

/*
 * What this process remembers of the public pages, so that the common request reads nothing: each
 * slug's fingerprint (lib/statuspages/fingerprint.ts) for FINGERPRINT_FRESH_MS after Postgres gave
 * it, and the renditions made for that fingerprint. A memo, never a source of truth: every entry
 * is something any process recomputes from the database, so an instance that never saw a change
 * serves it at most FINGERPRINT_FRESH_MS late, and a restart or an eviction costs one read.
 *
 * Requests for the same slug that arrive together share one fingerprint read, and requests for the
 * same new fingerprint share one render: a burst of 200 visitors after a status change costs one
 * statement and one render, not 200.
 */

/** How long a fingerprint is trusted before Postgres is asked again: the page's staleness bound. */
export const FINGERPRINT_FRESH_MS = 1_000;
/** Slugs remembered at most (fingerprints and renditions), the oldest dropped first. */
const MAX_SLUGS = 500;

interface Known {
  /** undefined: no published page at this slug (a 404 is remembered for as long). */
  fingerprint: PageFingerprint | undefined;
  readAt: number;
}

interface Rendered<Body> {
  tag: string;
  bodies: Map<string, Promise<Body | undefined>>;
}

/** Map keeps insertion order: re-inserting marks an entry as the newest; past `max` the oldest goes. */
function put<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
}

/** `Body`: what a rendition is kept as (the server keeps the encoded bytes it sends). */
export class StatusPageCache<Body = Uint8Array> {
  private readonly known = new Map<string, Known>();
  private readonly reading = new Map<string, Promise<Known>>();
  private readonly rendered = new Map<string, Rendered<Body>>();

  /** The page's fingerprint, at most FINGERPRINT_FRESH_MS old; undefined for no published page. */
  async fingerprint(db: Db, slug: string, now = Date.now()): Promise<PageFingerprint | undefined> {
    const known = this.known.get(slug);
    if (known && now - known.readAt < FINGERPRINT_FRESH_MS) return known.fingerprint;
    let reading = this.reading.get(slug);
    if (!reading) {
      reading = pageFingerprint(db, slug, now)
        .then((fingerprint) => {
          const read = { fingerprint, readAt: now };
          put(this.known, slug, read, MAX_SLUGS);
          return read;
        })
        .finally(() => this.reading.delete(slug));
      this.reading.set(slug, reading);
    }
    return (await reading).fingerprint;
  }

  /**
   * The rendition `kind` of the page at fingerprint `tag`: made once by `render` (undefined when the
   * page went away meanwhile, which is not remembered), then served from memory while the tag holds.
   */
  async body(
    { slug, tag, kind }: { slug: string; tag: string; kind: string },
    render: () => Promise<Body | undefined>,
  ): Promise<Body | undefined> {
    let entry = this.rendered.get(slug);
    if (!entry || entry.tag !== tag) {
      entry = { tag, bodies: new Map() };
      put(this.rendered, slug, entry, MAX_SLUGS);
    }
    let body = entry.bodies.get(kind);
    if (!body) {
      const own = entry;
      body = render().then(
        (made) => {
          if (made === undefined) own.bodies.delete(kind);
          return made;
        },
        (error: unknown) => {
          own.bodies.delete(kind);
          throw error;
        },
      );
      entry.bodies.set(kind, body);
    }
    return body;
  }
}
