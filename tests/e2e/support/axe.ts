import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.2 AA and axe's best practices: what the dashboard promises. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

type Violation = { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> };

/** Runs axe-core in the page and fails with a readable list when it finds anything. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  // A router.refresh() in flight (after a save) takes the <title> out of the head for a moment and
  // puts it back with the refreshed metadata; axe must judge the page, not that moment. A page with
  // no title at all still fails: here after the wait, or in axe's document-title rule.
  await expect(page, `${label}: the document has a title`).toHaveTitle(/\S/);
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  }, TAGS);
  const readable = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
  );
  expect(readable, `axe violations on ${label}`).toEqual([]);
}
