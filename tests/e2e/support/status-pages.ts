import type { Page } from '@playwright/test';

/** A status page's card in the dashboard's list, found by a text it holds (its title). */
export const statusPageCard = (page: Page, hasText: string) =>
  page.getByRole('list', { name: 'Status pages' }).getByRole('listitem').filter({ hasText });
