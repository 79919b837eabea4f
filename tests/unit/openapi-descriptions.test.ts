import { describe, expect, it } from 'vitest';
import { ROUTES } from '@/app/api/v1/routes';
import { buildOpenApiDocument } from '@/lib/api/openapi';

/*
 * The API reference is what an integrator generates a client from and reads in its docs: every
 * operation, parameter and field says what it is. A route or schema added without descriptions fails
 * here with the exact place to fix (a route's `summary`/`description`, a zod field's `.describe()`).
 */

type Schema = {
  description?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema | Schema[];
  prefixItems?: Schema[];
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Parameter = { name: string; in: string; description?: string };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
};
type Document = {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const described = (value: { description?: string }) =>
  typeof value.description === 'string' && value.description.trim() !== '';

/** Every property below `schema` without a description, as `where: a.b[].c`. */
function undescribedFields(schema: Schema, where: string, path = ''): string[] {
  const missing: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const field = path ? `${path}.${name}` : name;
    if (!described(property)) missing.push(`${where}: ${field}`);
    missing.push(...undescribedFields(property, where, field));
  }
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  for (const item of [...items, ...(schema.prefixItems ?? [])])
    missing.push(...undescribedFields(item, where, `${path}[]`));
  if (typeof schema.additionalProperties === 'object')
    missing.push(...undescribedFields(schema.additionalProperties, where, `${path}{*}`));
  for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    missing.push(...undescribedFields(option, where, path));
  return missing;
}

/** Every place the document lacks a description, each named so it can be found and fixed. */
function undescribed(doc: Document): string[] {
  const missing: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const at = `${method.toUpperCase()} ${path}`;
      if (!op.summary?.trim()) missing.push(`${at}: no summary (apiRoute option \`summary\`)`);
      if (!described(op)) missing.push(`${at}: no description (apiRoute option \`description\`)`);
      for (const parameter of op.parameters ?? [])
        if (!described(parameter))
          missing.push(`${at}: ${parameter.in} parameter ${parameter.name} (zod .describe() on the field)`);
      for (const [type, { schema }] of Object.entries(op.requestBody?.content ?? {}))
        missing.push(...undescribedFields(schema, `${at} request body (${type})`));
      for (const [status, response] of Object.entries(op.responses)) {
        if (!described(response)) missing.push(`${at}: response ${status} has no description`);
        for (const [type, { schema }] of Object.entries(response.content ?? {}))
          missing.push(...undescribedFields(schema, `${at} response ${status} (${type})`));
      }
    }
  }
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (!described(schema))
      missing.push(`components.schemas.${name}: no description (.meta({id, description}))`);
    missing.push(...undescribedFields(schema, `components.schemas.${name}`));
  }
  for (const tag of doc.tags ?? [])
    if (!described(tag)) missing.push(`tag ${tag.name}: no description (TAGS in lib/api/openapi.ts)`);
  return missing;
}

describe('the OpenAPI document describes everything', () => {
  const doc = buildOpenApiDocument(ROUTES, 'http://localhost:3000') as unknown as Document;

  it('has a summary and a description on every operation, parameter, response and field', () => {
    // Each entry names the operation or component and the field path (a.b[].c) lacking a description.
    expect(undescribed(doc)).toEqual([]);
  });

  it('names the resources as components and refers to them from the operations', () => {
    const names = Object.keys(doc.components.schemas);
    for (const resource of [
      'Site',
      'Run',
      'BrokenLink',
      'Page',
      'A11yReport',
      'SeoReport',
      'BrokenLinkReport',
    ])
      expect(names).toContain(resource);
    const report = doc.paths['/v1/sites/{id}/report']?.get?.responses['200']?.content?.['application/json'];
    expect(report?.schema).toEqual({ $ref: '#/components/schemas/BrokenLinkReport' });
    // No copy of a named resource inline: the Site's fields appear in one place only.
    const copies = JSON.stringify(doc).split('"scanner_enabled":').length - 1;
    expect(copies).toBe(1);
  });

  it('fails on what it must catch', () => {
    const broken = structuredClone(doc);
    const site = broken.components.schemas.Site!;
    delete site.properties!.root_url!.description;
    delete broken.paths['/v1/sites']!.get!.description;
    const before = new Set(undescribed(doc));
    expect(undescribed(broken).filter((entry) => !before.has(entry))).toEqual([
      'GET /v1/sites: no description (apiRoute option `description`)',
      'components.schemas.Site: root_url',
    ]);
  });
});
