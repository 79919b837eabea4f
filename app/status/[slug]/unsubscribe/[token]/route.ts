import { servePublicUnsubscribe } from '@/lib/api/public-subscribe';

type Context = { params: Promise<{ slug: string; token: string }> };

/**
 * Public, no credential: a subscriber's unsubscribe link, the List-Unsubscribe URL of every mail
 * (lib/api/public-subscribe.ts). The GET only shows it; a POST (the page's button, or a mail client's
 * RFC 8058 one-click) unsubscribes.
 */
export const GET = async (req: Request, context: Context) => {
  const { slug, token } = await context.params;
  return servePublicUnsubscribe(req, slug, token);
};
export const POST = GET;
