import type { NextConfig } from 'next';

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
