import { publicPath } from '@/lib/api/methods';

// Unmatched /v1 paths answer like every other API error, not with the dashboard's HTML 404 page.
const noSuchEndpoint = async (req: Request) =>
  Response.json({ error: `no such endpoint: ${req.method} ${publicPath(req)}` }, { status: 404 });

export const GET = noSuchEndpoint;
export const POST = noSuchEndpoint;
export const PUT = noSuchEndpoint;
export const PATCH = noSuchEndpoint;
export const DELETE = noSuchEndpoint;
