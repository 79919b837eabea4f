import { publicPath } from '@/lib/api/methods';
import { addressLimited } from '@/lib/api/rate-limit';

// Unmatched /v1 paths answer like every other API error, not with the dashboard's HTML 404 page,
// and count against the client's address like every other /v1 request.
const noSuchEndpoint = addressLimited(async (req: Request) =>
  Response.json({ error: `no such endpoint: ${req.method} ${publicPath(req)}` }, { status: 404 }),
);

export const GET = noSuchEndpoint;
export const POST = noSuchEndpoint;
export const PUT = noSuchEndpoint;
export const PATCH = noSuchEndpoint;
export const DELETE = noSuchEndpoint;
