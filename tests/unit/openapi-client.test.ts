import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES, clientTypes } from '@/scripts/openapi';

/*
 * The typed client that tests/integration/api-client.test.ts drives the API with is generated from the
 * OpenAPI document (openapi-typescript) and committed, so the test code typechecks against it. After a
 * route or a schema changes, `npm run client:generate` brings it up to date; this test says when.
 */
describe('the generated API client types', () => {
  it('are generated from the document as it stands', async () => {
    const committed = readFileSync(CLIENT_TYPES, 'utf8');
    expect(
      committed === (await clientTypes()),
      'tests/support/api-client/v1.d.ts lags the OpenAPI document: run `npm run client:generate`',
    ).toBe(true);
  });
});
