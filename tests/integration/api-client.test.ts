import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client';
import { crawlTestbed } from '../support/crawl';
import { insertApiKey, signInOwner } from '../support/http';
import { startServer } from '../support/http-server';

/*
 * What an integrator does with the API reference: generate a typed client from it (openapi-typescript
 * types, openapi-fetch) and drive the API with it. Here the client registers a site served on
 * 127.0.0.2, crawls it, waits for the crawl through the status endpoint and reads the reports, every
 * request a real Request handled by the route handlers against a real database. That the committed
 * types are the document's is tests/unit/openapi-client.test.ts's.
 */

const page = (body: string, title: string) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`,
});

/** Calls `read` every 100 ms until `done` holds for its answer (the test's own timeout bounds it). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const bed = crawlTestbed(() =>
  startServer('127.0.0.2', {
    '/': page('<a href="/about">About</a> <a href="/gone">Old page</a>', 'Home'),
    '/about': page('<a href="/">Home</a> <a href="/gone">Again</a> <a href="/moved">Moved</a>', 'About'),
    '/moved': { status: 301, headers: { location: '/about' } },
    '/gone': { status: 404 },
  }),
);

describe('a client generated from the OpenAPI document', () => {
  it('registers a site, crawls it, waits for the crawl and reads the reports', async () => {
    const { tenantId } = await signInOwner(bed.db, 'integrator@client.test');
    const client = apiClient(await insertApiKey(bed.db, tenantId, { name: 'integration' }));
    const rootUrl = bed.site.url('/');

    const created = await client.POST('/v1/sites', { body: { rootUrl, maxPages: 50 } });
    expect(created.response.status).toBe(201);
    const siteId = created.data!.site.id;
    expect(created.data!.site.hostname).toBe('127.0.0.2');

    const crawl = await client.POST('/v1/sites/{id}/crawl', { params: { path: { id: siteId } } });
    expect(crawl.response.status).toBe(202);
    expect(crawl.data!.started).toBe(true);

    // Poll the status as an integration would, until the crawl has finished.
    const status = await until(
      () => client.GET('/v1/sites/{id}/status', { params: { path: { id: siteId } } }),
      ({ data }) => data?.live.state === 'idle' && data.latestRun?.state !== 'running',
    );
    expect(status.data!.latestRun?.state).toBe('completed');

    const report = await client.GET('/v1/sites/{id}/report', { params: { path: { id: siteId } } });
    expect(report.response.status).toBe(200);
    const { run, brokenLinks } = report.data!;
    expect(run.id).toBe(status.data!.latestRun?.id);
    expect(run.broken_count).toBe(1);
    expect(brokenLinks.map((link) => [link.source_url, link.target_url, link.status_code])).toEqual([
      [bed.site.url('/'), bed.site.url('/gone'), 404],
      [bed.site.url('/about'), bed.site.url('/gone'), 404],
    ]);

    // Query parameters are typed too: limit is a number, sort one of the documented values.
    const pages = await client.GET('/v1/sites/{id}/pages', {
      params: { path: { id: siteId }, query: { sort: 'status', order: 'desc', limit: 2 } },
    });
    expect(pages.response.status).toBe(200);
    expect(pages.data!.pages.map((p) => [p.url, p.status_code])).toEqual([
      [bed.site.url('/gone'), 404],
      [bed.site.url('/moved'), 301],
    ]);
    expect(pages.data!.nextCursor).not.toBeNull();

    // Errors come back as the documented Error body.
    const missing = await client.GET('/v1/sites/{id}/report', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ error: 'site not found' });
  });
});
