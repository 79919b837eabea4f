import type { NextConfig } from 'next';

/** lib/reports/fonts.ts: the package's package.json (resolved) and the two faces it inlines. */
const REPORT_FONT_FILES = [
  './node_modules/@fontsource/inter/package.json',
  './node_modules/@fontsource/inter/files/inter-latin-400-normal.woff2',
  './node_modules/@fontsource/inter/files/inter-latin-700-normal.woff2',
];
const CHROMIUM_FILES = ['./node_modules/@sparticuz/chromium/bin/**'];

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
    '/api/v1/sites/*/reports/monthly': [...REPORT_FONT_FILES, ...CHROMIUM_FILES],
    '/sites/*/report': REPORT_FONT_FILES,
    '/api/inngest': [...REPORT_FONT_FILES, ...CHROMIUM_FILES],
  },
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
