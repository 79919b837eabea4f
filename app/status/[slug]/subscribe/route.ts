import { servePublicSubscribe } from '@/lib/api/public-subscribe';

/** Public, no credential: the status page's no-script subscribe form (lib/api/public-subscribe.ts). */
export const POST = async (req: Request, context: { params: Promise<{ slug: string }> }) =>
  servePublicSubscribe(req, (await context.params).slug);
