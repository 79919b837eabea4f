import { ROUTES } from '@/app/api/v1/routes';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import { config } from '@/lib/config';

/** The API reference, public like any API documentation (no tenant data in it). */
export async function GET() {
  return Response.json(buildOpenApiDocument(ROUTES, config().appUrl));
}
