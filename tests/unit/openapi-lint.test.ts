import { describe, expect, it } from 'vitest';
import { lintDocument, openApiDocument } from '@/scripts/openapi';

/*
 * The API reference passes Redocly's recommended ruleset, strict (redocly.yaml says which rules are
 * off and why), so a generator or a docs tool reads it without complaint. `npm run api:lint` shows
 * the same problems with the document's context.
 */
describe('OpenAPI lint (Redocly CLI, redocly.yaml)', () => {
  it('finds no problem in the document the routes build', () => {
    const { status, problems } = lintDocument('json');
    const found = problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
    expect(status).toBe(0);
  });

  it('reports a broken document', () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { description?: string }>> };
    delete doc.paths['/v1/sites']!.get!.description;
    const { status, problems } = lintDocument('json', doc);
    expect(status).not.toBe(0);
    expect(problems.map((p) => [p.ruleId, p.location[0]?.pointer])).toContainEqual([
      'operation-description',
      '#/paths/~1v1~1sites/get/description',
    ]);
  });
});
