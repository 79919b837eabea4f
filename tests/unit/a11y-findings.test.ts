import { describe, expect, it } from 'vitest';
import { findingFromRow, parseNodes } from '@/lib/a11y/report/findings';

describe('findings from stored rows', () => {
  it('map a row to the core input, with its example nodes', () => {
    const nodes = [
      { selector: '#logo', snippet: '<img id="logo">', summary: 'Fix any of the following: ...' },
      { selector: 'iframe > #x', snippet: '<img id="x">' },
    ];
    expect(
      findingFromRow({
        page_url: 'https://s.test/',
        rule: 'image-alt',
        type: 'violation',
        impact: 'critical',
        count: 7,
        nodes,
      }),
    ).toEqual({
      pageUrl: 'https://s.test/',
      rule: 'image-alt',
      type: 'violation',
      impact: 'critical',
      count: 7,
      nodes: [
        { selector: '#logo', snippet: '<img id="logo">', summary: 'Fix any of the following: ...' },
        { selector: 'iframe > #x', snippet: '<img id="x">' },
      ],
    });
  });

  it('drop nodes without a selector and read malformed JSON as no examples', () => {
    expect(parseNodes('[{"snippet":"<a>"},{"selector":3},null,{"selector":"a"}]')).toEqual([
      { selector: 'a' },
    ]);
    expect(parseNodes('not json')).toEqual([]);
    expect(parseNodes('{"selector":"a"}')).toEqual([]);
    expect(parseNodes('[]')).toEqual([]);
  });
});
