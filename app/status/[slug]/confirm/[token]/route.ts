import { servePublicConfirm } from '@/lib/api/public-subscribe';

type Context = { params: Promise<{ slug: string; token: string }> };

/**
 * Public, no credential: the confirmation link of a subscription (lib/api/public-subscribe.ts). The
 * GET only shows it (mail scanners open links); the page's button POSTs here to confirm.
 */
export const GET = async (req: Request, context: Context) => {
  const { slug, token } = await context.params;
  return servePublicConfirm(req, slug, token);
};
export const POST = GET;
