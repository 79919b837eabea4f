import { servePublicStatus } from '@/lib/api/public-status';

/** Public, no credential (lib/api/public-status.ts). */
export const GET = async (req: Request, context: { params: Promise<{ slug: string }> }) =>
  servePublicStatus(req, (await context.params).slug, 'json');
