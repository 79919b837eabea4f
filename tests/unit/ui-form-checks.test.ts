import { describe, expect, it } from 'vitest';
import { withAssumedScheme } from '@/components/ui/form-checks';

/*
 * The register form reads a bare host as https: people type "example.com", and the browser's
 * type="url" check refused it ("Please enter a URL.") before the form could help.
 */

describe('withAssumedScheme', () => {
  it('reads a bare host, with or without a path or port, as https', () => {
    expect(withAssumedScheme('example.com')).toBe('https://example.com');
    expect(withAssumedScheme('  www.example.com/blog ')).toBe('https://www.example.com/blog');
    expect(withAssumedScheme('example.com:8443')).toBe('https://example.com:8443');
    expect(withAssumedScheme('//example.com')).toBe('https://example.com');
  });

  it('leaves a value with a scheme, and an empty one, for the API to judge', () => {
    expect(withAssumedScheme('http://example.com/')).toBe('http://example.com/');
    expect(withAssumedScheme('HTTPS://Example.com')).toBe('HTTPS://Example.com');
    expect(withAssumedScheme('ftp://files.example.com')).toBe('ftp://files.example.com');
    expect(withAssumedScheme('   ')).toBe('');
  });
});
