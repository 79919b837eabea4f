import { afterEach, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/inngest/route';
import { inngest } from '@/jobs/client';
import { functions } from '@/jobs/functions';
import { EmbeddedRunner } from '@/jobs/runtime/embedded';

afterEach(() => {
  inngest.setEnvVars({ INNGEST_DEV: undefined });
});

describe('/api/inngest', () => {
  it('serves the function list to Inngest', async () => {
    // Dev mode answers introspection without a signing key; cloud mode would demand signatures.
    inngest.setEnvVars({ INNGEST_DEV: '1' });
    const response = await GET(new Request('http://127.0.0.1:3000/api/inngest') as never, undefined);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { function_count?: number; mode?: string };
    expect(body.mode).toBe('dev');
    // An onFailure handler registers as a second function, hence at least.
    expect(body.function_count).toBeGreaterThanOrEqual(functions.length);
  });
});

describe('jobs/functions', () => {
  it('lists only functions the embedded runner can run, with distinct ids', () => {
    // Construction reads every definition and refuses unsupported options or expressions.
    const runner = new EmbeddedRunner(functions);
    expect(runner.definitions.map((d) => d.id)).toEqual(functions.map((f) => f.id()));
  });
});
