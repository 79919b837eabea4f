import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';

describe('parseConfig', () => {
  it('applies the embedded defaults', () => {
    const c = parseConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.appUrl).toBe('http://localhost:3000');
    expect(c.INCLUDED_SITES).toBe(3);
    expect(c.embeddedRunner).toBe(true);
    expect(c.inngestHosted).toBe(false);
  });

  it('switches to hosted Inngest when keys are present', () => {
    const c = parseConfig({ INNGEST_EVENT_KEY: 'k', INNGEST_SIGNING_KEY: 's' });
    expect(c.inngestHosted).toBe(true);
    expect(c.embeddedRunner).toBe(false);
  });

  it('refuses private-network access in production', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', ALLOW_PRIVATE_NETWORK: 'true' })).toThrow(
      /ALLOW_PRIVATE_NETWORK/,
    );
  });

  it('names the bad variable', () => {
    expect(() => parseConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });
});
