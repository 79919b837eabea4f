import { describe, expect, it } from 'vitest';
import { compileExpression } from '@/jobs/runtime/expression';

const scope = {
  event: {
    name: 'crawl/requested',
    data: { siteId: 's1', tenantId: 't1', n: 2, nested: { deep: 'x' }, flag: true },
  },
};

describe('compileExpression', () => {
  it('reads paths into the event', () => {
    expect(compileExpression('event.data.siteId')(scope)).toBe('s1');
    expect(compileExpression('event.data.nested.deep')(scope)).toBe('x');
    expect(compileExpression('event.name')(scope)).toBe('crawl/requested');
    expect(compileExpression('event.data.missing.deeper')(scope)).toBeUndefined();
  });

  it('concatenates with +, and adds numbers', () => {
    expect(compileExpression('event.data.tenantId + "-" + event.data.siteId')(scope)).toBe('t1-s1');
    expect(compileExpression('event.data.n + 3')(scope)).toBe(5);
    expect(compileExpression('"global"')(scope)).toBe('global');
  });

  it('compares and combines', () => {
    expect(compileExpression("event.data.siteId == 's1'")(scope)).toBe(true);
    expect(compileExpression("event.data.siteId != 's1'")(scope)).toBe(false);
    expect(compileExpression('event.data.n == 2 && event.data.flag == true')(scope)).toBe(true);
    expect(
      compileExpression("event.data.n == 3 || (event.data.siteId == 's1' && event.data.flag)")(scope),
    ).toBe(true);
    expect(compileExpression('event.data.missing == null')(scope)).toBe(false);
  });

  it('refuses what it cannot evaluate, naming the expression', () => {
    expect(() => compileExpression('event.data.list[0]')).toThrow(
      /cannot evaluate expression "event.data.list\[0\]"/,
    );
    expect(() => compileExpression('size(event.data.list) > 2')).toThrow(/cannot evaluate/);
    expect(() => compileExpression("event.data.siteId == 's1")).toThrow(/unterminated string/);
    expect(() => compileExpression('(event.data.n == 2')).toThrow(/missing "\)"/);
  });
});
