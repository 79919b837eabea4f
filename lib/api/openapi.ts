import { z } from 'zod';
import { HTTP_METHODS, type HttpMethod } from './methods';
import type { ApiHandler, RouteMeta } from './pipeline';

/**
 * One route file: its public path (`/v1/sites/{id}`) and the handlers it exports; only those built
 * by the pipeline (with `meta`) are operations, the rest answer 405 (see `otherMethods`).
 */
export type RouteEntry = {
  path: string;
  handlers: Partial<Record<HttpMethod, ApiHandler | ((req: Request) => Promise<Response>)>>;
};

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Transforms and refinements have no JSON Schema form; their input side documents the request.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The properties of an object schema as OpenAPI parameters (path or query). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

const errorBody = {
  description: 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

function errorResponses(meta: RouteMeta): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    '401': { ...errorBody, description: 'Missing or invalid credentials' },
    '403': {
      ...errorBody,
      description:
        meta.auth === 'session' ? 'Not allowed (API keys cannot use this endpoint)' : 'Not allowed',
    },
  };
  if (meta.params || meta.site)
    responses['404'] = { ...errorBody, description: 'Not found or not visible to the caller' };
  if (meta.body || meta.query)
    responses['422'] = { ...errorBody, description: 'Validation failure naming the field' };
  if (meta.body) responses['400'] = { ...errorBody, description: 'Malformed JSON' };
  return responses;
}

function operation(method: HttpMethod, path: string, meta: RouteMeta): JsonSchema {
  const status = String(meta.status ?? 200);
  return {
    operationId: `${method.toLowerCase()}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(meta.summary ? { summary: meta.summary } : {}),
    tags: [path.split('/')[2] ?? 'v1'],
    security: meta.auth === 'session' ? [{ session: [] }] : [{ apiKey: [] }, { session: [] }],
    ...(meta.permission && meta.permission !== 'read' ? { 'x-permission': meta.permission } : {}),
    parameters: [...parameters(meta.params, 'path'), ...parameters(meta.query, 'query')],
    ...(meta.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(meta.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [status]: {
        description: 'Success',
        ...(meta.response
          ? { content: { 'application/json': { schema: jsonSchema(meta.response, 'output') } } }
          : {}),
      },
      ...errorResponses(meta),
    },
  };
}

/** The OpenAPI 3.1 document of the /v1 API, generated from the routes' own declarations. */
export function buildOpenApiDocument(routes: RouteEntry[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    for (const method of HTTP_METHODS) {
      const handler = route.handlers[method];
      if (!handler || !('meta' in handler)) continue;
      paths[route.path] ??= {};
      paths[route.path]![method.toLowerCase()] = operation(method, route.path, handler.meta);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sitewatch API',
      version: '1',
      description:
        'Broken links, SEO, accessibility, uptime and field data for the sites of one organization. ' +
        'Every error body is {"error": "<message>"}.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        session: {
          type: 'http',
          scheme: 'bearer',
          description: 'Session token from set-auth-token at sign-in',
        },
      },
      schemas: {
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      },
    },
    paths,
  };
}
