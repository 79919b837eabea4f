import type { NextConfig } from 'next';

/** lib/reports/fonts.ts: the package's package.json (resolved) and the two faces it inlines. */
const REPORT_FONT_FILES = [
  './node_modules/@fontsource/inter/package.json',
  './node_modules/@fontsource/inter/files/inter-latin-400-normal.woff2',
  './node_modules/@fontsource/inter/files/inter-latin-700-normal.woff2',
];
const CHROMIUM_FILES = [
  './node_modules/@sparticuz/chromium/bin/**',
  // Read by playwright-core's own code through a computed path when it loads.
  './node_modules/playwright-core/browsers.json',
];
/**
 * The routes that launch Chromium: the render pass and the monthly mail's PDF run under /api/inngest,
 * the report download prints. Each is its own Vercel function (vercel.json gives them their memory),
 * so the rest of the app ships without Chromium and playwright-core (scripts/vercel-traces.mjs
 * names their traces too).
 */
const BROWSER_ROUTES = ['/api/inngest', '/api/v1/sites/*/reports/monthly'];

const nextConfig: NextConfig = {
  // Packages that load native binaries, WebAssembly or their own files at run time stay outside the
  // server bundle and are required from node_modules as published.
  serverExternalPackages: [
    '@axe-core/playwright',
    'axe-core',
    '@electric-sql/pglite',
    '@sparticuz/chromium',
    'playwright-core',
    'pg',
  ],
  // Files read from disk at run time by a path the build's tracing cannot follow, added to the
  // traced output of the routes that read them (a hosted deployment ships only the traced files;
  // without these the report fails there with ENOENT, which no self-hosted run shows):
  // - the report's Inter font files, which lib/reports/fonts.ts resolves from process.cwd() and
  //   inlines (the monthly report PDF, the printable report page, the monthly mail's PDF);
  // - @sparticuz/chromium's compressed Chromium (bin/*.br), which its executablePath() unpacks to
  //   /tmp: the tracing keeps the package's JS and leaves out the binaries it opens by a computed
  //   path (the monthly report PDF; under /api/inngest, the render pass and the monthly mail).
  // Keys are route globs matched anywhere in the route, so `/sites/*/report` also gives the two
  // small font files to the API's report routes; the 67 MB of Chromium go only where it runs.
  outputFileTracingIncludes: {
    ...Object.fromEntries(BROWSER_ROUTES.map((route) => [route, [...REPORT_FONT_FILES, ...CHROMIUM_FILES]])),
    '/sites/*/report': REPORT_FONT_FILES,
  },
  // What a hosted function never opens (PGlite, the migrations, and playwright-core outside
  // BROWSER_ROUTES) is dropped from the traces by scripts/vercel-traces.mjs after the build:
  // outputFileTracingExcludes leaves the instrumentation hook's trace alone, which the Vercel builder
  // adds to every function, and Turbopack ignores a negated route pattern.
  poweredByHeader: false,
  // The public API lives at /v1 (the spec's prefix); its route handlers live under app/api/v1.
  async rewrites() {
    return [{ source: '/v1/:path*', destination: '/api/v1/:path*' }];
  },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
