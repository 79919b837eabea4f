import { ROUTES } from '@/app/api/v1/routes';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import { addressLimited } from '@/lib/api/rate-limit';
import { config } from '@/lib/config';

/** The API reference, public like any API documentation (no tenant data in it). */
export const GET = addressLimited(async () => Response.json(buildOpenApiDocument(ROUTES, config().appUrl)));
