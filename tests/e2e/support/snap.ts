import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { runDir } from './run';

/** Full-page screenshot into the run folder, for reviewing the design after a run. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(runDir(), 'screens', `${name}.png`), fullPage: true });
}
