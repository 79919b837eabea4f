import { config } from '@/lib/config';
import type { StatusPage } from '@/lib/db/schema';

/** Where a page is served, absolute: /status/{slug} on the app's own address. */
export function publicUrl(slug: string, file = ''): string {
  return `${config().appUrl}/status/${slug}${file}`;
}

/** Spec: StatusPage (lib/api/schemas/statuspages.ts proves the shapes equal). */
export function statusPageView(page: StatusPage, monitorIds: string[], subscriberCount: number) {
  return {
    id: page.id,
    slug: page.slug,
    title: page.title,
    description: page.description,
    url: publicUrl(page.slug),
    badgeUrl: publicUrl(page.slug, '/badge.svg'),
    monitorIds,
    published: page.published === 1,
    showA11yScore: page.show_a11y_score === 1,
    showBrokenLinks: page.show_broken_links === 1,
    showMonitorUrls: page.show_monitor_urls === 1,
    createdAt: page.created_at,
    updatedAt: page.updated_at,
    /** Confirmed subscribers (./subscribers.ts): how many, never who. */
    subscriberCount,
  };
}
export type StatusPageView = ReturnType<typeof statusPageView>;
