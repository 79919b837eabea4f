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

/**
 * The operations' tags (a path's first segment after /v1) and what each groups. A path under a new
 * first segment needs its line here (tests/unit/openapi-descriptions.test.ts names the tag otherwise).
 */
const TAGS: Record<string, string> = {
  sites:
    'Sites and everything about one site: settings, crawls, reports (broken links, SEO, pages, accessibility), run history, usage.',
  usage: "The organization's metered usage per billing period (owner/admin session).",
  billing: 'Overage setting, paused apps and the projected bill (owner/admin session).',
  keys: 'API keys of the organization (owner/admin session).',
  'status-pages':
    "Public status pages of the organization's uptime monitors, served at /status/{slug} (owners, admins and unscoped API keys).",
  members: "The organization's members, their roles and site access (owner/admin session).",
  organization:
    "The organization's name and logo, which brand its reports and mails (any member reads; owner/admin session changes).",
  me: "The signed-in account's organization cap and limit requests (any session role).",
  notifications:
    'Notification settings (org defaults), test sends, the webhook signing secret and the delivery log (owner/admin session).',
  confirm:
    'Public: an address outside an organization confirms it wants its notifications (the link of its confirmation mail; the token is the credential).',
  unsubscribe:
    "Public: RFC 8058 one-click unsubscribe from a notification mail's List-Unsubscribe link (the token is the credential).",
};

const SAFE_INTEGER_BOUNDS = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/**
 * Schemas as JSON Schema, with every schema named in zod (`.meta({id: 'Site'})`) moved to
 * `components.schemas` and referenced from where it is used, so a generated client gets one `Site`
 * type rather than a copy per operation.
 */
class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $schema: _ignored,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      io,
      // Transforms and refinements have no JSON Schema form; their input side documents the request.
      unrepresentable: 'any',
      override: ({ jsonSchema }) => {
        if (jsonSchema.type === 'integer') {
          // z.int() is bounded to the safe integers; saying so on every integer is noise.
          if (jsonSchema.minimum === SAFE_INTEGER_BOUNDS[0]) delete jsonSchema.minimum;
          if (jsonSchema.maximum === SAFE_INTEGER_BOUNDS[1]) delete jsonSchema.maximum;
          // A query integer is read from digits (`queryInt`): the pattern is the text's, not the number's.
          delete jsonSchema.pattern;
        }
      },
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const names = new Map<string, string>();
    for (const [id, definition] of Object.entries($defs ?? {}))
      names.set(id, this.register(id, definition, io));
    const rename = (ref: string) => {
      const id = decodeURIComponent(ref.replace(/^#\/\$defs\//, ''));
      return `#/components/schemas/${names.get(id) ?? id}`;
    };
    for (const [id, definition] of Object.entries($defs ?? {}))
      this.components[names.get(id)!] = rewriteRefs(definition, rename) as JsonSchema;
    return rewriteRefs(root, rename) as JsonSchema;
  }

  /**
   * The component name for a named schema. The same name on the request side and the response side
   * may describe different JSON (a default, a transform): the request's then gets an `Input` suffix.
   */
  private register(id: string, definition: JsonSchema, io: 'input' | 'output'): string {
    const candidates = io === 'input' ? [id, `${id}Input`] : [id];
    for (const name of candidates) {
      const existing = this.components[name];
      if (existing === undefined || sameJson(existing, definition)) return name;
    }
    throw new Error(`OpenAPI: two different schemas are named "${id}" (.meta({id})); give one another id`);
  }
}

/** Compares a stored component with a fresh definition whose refs still point into `$defs`. */
function sameJson(stored: JsonSchema, fresh: JsonSchema): boolean {
  const normalize = (value: unknown) =>
    JSON.stringify(rewriteRefs(value, (ref) => ref.replace(/^#\/(\$defs|components\/schemas)\//, '#/')));
  return normalize(stored) === normalize(fresh);
}

function rewriteRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? rename(item) : rewriteRefs(item, rename),
    ]),
  );
}

/** The properties of an object schema as OpenAPI parameters (path or query), each with its description. */
function parameters(
  converter: SchemaConverter,
  schema: z.ZodType | undefined,
  where: 'path' | 'query',
): JsonSchema[] {
  if (!schema) return [];
  const object = converter.convert(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    ...(description === undefined ? {} : { description }),
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

/** The rate-limit fields every /v1 answer carries (lib/api/rate-limit.ts), and Retry-After on a 429. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

const HEADER_COMPONENTS = {
  'RateLimit-Policy': {
    description:
      "The rate limits the request was counted against (IETF draft-ietf-httpapi-ratelimit-headers): each policy's name, `q` its quota and `w` its window in seconds. `address`: every request per client address; `key` or `session`: per API key or dashboard session; `test-send` and `outside-send`: per organization, on test notifications and on sends to addresses the organization does not own.",
    schema: { type: 'string', examples: ['"address";q=1000;w=60, "key";q=500;w=60'] },
  },
  RateLimit: {
    description:
      'Where each of those limits stands: `r` what is left of the quota, `t` the seconds until the window ends and the count starts again.',
    schema: { type: 'string', examples: ['"address";r=998;t=42, "key";r=497;t=42'] },
  },
  'Retry-After': {
    description: 'Seconds until the refusing window ends (RFC 9110).',
    schema: { type: 'integer', minimum: 0 },
  },
};

const errorBody = {
  description: 'Error',
  headers: RATE_LIMIT_HEADERS,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

const TOO_MANY_REQUESTS =
  'Rate limit reached (see RateLimit-Policy and RateLimit), or too many requests of the key, session or organization in progress at once; Retry-After says when to come back';

function errorResponses(meta: RouteMeta): Record<string, unknown> {
  // A public route reads no credential: its path's token is checked as a resource (404).
  const reasons: Record<string, string> =
    meta.auth === 'none'
      ? {}
      : {
          '401': 'Missing or invalid credentials',
          '403':
            meta.auth === 'session'
              ? 'Not allowed (API keys cannot use this endpoint)'
              : 'Not allowed for the caller',
        };
  if (meta.params || meta.site) reasons['404'] = 'Not found or not visible to the caller';
  if (meta.body) {
    reasons['400'] = 'Malformed JSON';
    reasons['413'] = 'Request body larger than 256 KiB';
  }
  if (meta.body || meta.query) reasons['422'] = 'Validation failure: every problem, each naming its field';
  reasons['429'] = TOO_MANY_REQUESTS;
  for (const [status, reason] of Object.entries(meta.errors ?? {}))
    reasons[status] = reasons[status] ? `${reasons[status]}; ${reason}` : reason;
  return Object.fromEntries(
    Object.entries(reasons)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, description]) => [
        status,
        status === '429'
          ? {
              ...errorBody,
              description,
              headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
            }
          : { ...errorBody, description },
      ]),
  );
}

/** Whether a request may leave the body out (an empty body reads as undefined, see the pipeline). */
function acceptsNoBody(body: z.ZodType): boolean {
  try {
    return body.safeParse(undefined).success;
  } catch {
    return false;
  }
}

/** `GET /v1/sites/{id}/report` -> `getV1SitesByIdReport`. */
const operationId = (method: HttpMethod, path: string) =>
  `${method.toLowerCase()}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;

function operation(
  converter: SchemaConverter,
  method: HttpMethod,
  path: string,
  meta: RouteMeta,
): JsonSchema {
  const status = String(meta.status ?? 200);
  const response = meta.response ? converter.convert(meta.response, 'output') : undefined;
  return {
    operationId: operationId(method, path),
    ...(meta.summary ? { summary: meta.summary } : {}),
    ...(meta.description ? { description: meta.description } : {}),
    tags: [path.split('/')[2] ?? 'v1'],
    security:
      meta.auth === 'none'
        ? []
        : meta.auth === 'session'
          ? [{ session: [] }]
          : [{ apiKey: [] }, { session: [] }],
    ...(meta.permission && meta.permission !== 'read' ? { 'x-permission': meta.permission } : {}),
    parameters: [
      ...parameters(converter, meta.params, 'path'),
      ...parameters(converter, meta.query, 'query'),
    ],
    ...(meta.body
      ? {
          requestBody: {
            required: !acceptsNoBody(meta.body),
            content: { 'application/json': { schema: converter.convert(meta.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [status]: meta.file
        ? {
            description: meta.file.description,
            headers: {
              ...RATE_LIMIT_HEADERS,
              'Content-Disposition': {
                description: 'attachment, with the file name',
                schema: { type: 'string' },
              },
            },
            content: { [meta.file.contentType]: { schema: { type: 'string', format: 'binary' } } },
          }
        : {
            description: (meta.response && z.globalRegistry.get(meta.response)?.description) || 'Success',
            headers: RATE_LIMIT_HEADERS,
            ...(response ? { content: { 'application/json': { schema: response } } } : {}),
          },
      ...errorResponses(meta),
    },
  };
}

/** The OpenAPI 3.1 document of the /v1 API, generated from the routes' own declarations. */
export function buildOpenApiDocument(routes: RouteEntry[], serverUrl: string): JsonSchema {
  const converter = new SchemaConverter();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Set<string>();
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    for (const method of HTTP_METHODS) {
      const handler = route.handlers[method];
      if (!handler || !('meta' in handler)) continue;
      paths[route.path] ??= {};
      const op = operation(converter, method, route.path, handler.meta);
      for (const tag of op.tags as string[]) tags.add(tag);
      paths[route.path]![method.toLowerCase()] = op;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sitewatch API',
      version: '1',
      description:
        'Broken links, SEO, accessibility, uptime and field data for the sites of one organization. ' +
        'Authenticate with an API key (`x-api-key`) or a dashboard session token (`Authorization: Bearer`). ' +
        'Every error body is {"error": "<message>"}; a 422 adds "issues": [{"field", "message"}], one per problem. ' +
        'Requests are rate limited per client address, per API key or session, and per organization for test sends and sends to addresses it does not own; ' +
        'every answer says where the limits stand in RateLimit-Policy and RateLimit (IETF draft-ietf-httpapi-ratelimit-headers), and one past a limit is 429 with Retry-After. ' +
        'A server works on at most a few requests of one key, session or organization at once (API_CONCURRENT_PER_TENANT, 4 by default); a few more wait their turn, past them the answer is 429 at once with Retry-After.',
    },
    servers: [{ url: serverUrl, description: 'This Sitewatch installation' }],
    tags: [...tags].sort().map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) })),
    components: {
      headers: HEADER_COMPONENTS,
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'An API key of the organization (created on the dashboard\'s Keys page), "sw_..."',
        },
        session: {
          type: 'http',
          scheme: 'bearer',
          description: 'Session token from set-auth-token at sign-in',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          description: 'The body of every error answer',
          required: ['error'],
          properties: {
            error: {
              type: 'string',
              description: 'What went wrong; on a 422, every problem of the input, each naming its field',
            },
            issues: {
              type: 'array',
              description:
                'On a 422: every problem of the input, one entry each (an unknown field is named, with the message "is not a field of this request (unknown field)")',
              items: {
                type: 'object',
                required: ['field', 'message'],
                properties: {
                  field: { type: 'string', description: "The field's path, e.g. `alertWebhooks.0.url`" },
                  message: { type: 'string', description: 'What is wrong with it' },
                },
              },
            },
          },
        },
        ...Object.fromEntries(Object.entries(converter.components).sort(([a], [b]) => a.localeCompare(b))),
      },
    },
    paths,
  };
}
