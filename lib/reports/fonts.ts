import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The report's typeface, Inter (regular and bold, Latin), from the `@fontsource/inter` package as
 * `@font-face` rules with the font files inlined as data URLs: the PDF renderer loads the page with
 * `setContent` and no network, and the dashboard's print page needs no font route either, so the
 * PDF looks the same on every machine whatever fonts it has installed.
 */
const FACES = [
  { weight: 400, file: 'inter-latin-400-normal.woff2' },
  { weight: 700, file: 'inter-latin-700-normal.woff2' },
] as const;

let css: Promise<string> | null = null;

export function reportFontCss(): Promise<string> {
  if (!css) {
    const loading = loadFontCss();
    css = loading;
    // A failed read (a missing package) is tried again on the next report, not remembered.
    loading.catch(() => {
      if (css === loading) css = null;
    });
  }
  return css;
}

async function loadFontCss(): Promise<string> {
  // Resolved from the app's root as lib/db/pglite-thread.ts does: a bundled server chunk's own
  // location says nothing about where node_modules is.
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const folder = path.dirname(require.resolve('@fontsource/inter/package.json'));
  const rules = await Promise.all(
    FACES.map(async ({ weight, file }) => {
      const data = (await readFile(path.join(folder, 'files', file))).toString('base64');
      return `@font-face{font-family:"Inter";font-style:normal;font-display:block;font-weight:${weight};src:url(data:font/woff2;base64,${data}) format("woff2")}`;
    }),
  );
  return rules.join('\n');
}
