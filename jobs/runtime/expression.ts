/**
 * The slice of Inngest's expression language (CEL) the embedded runner understands: enough for
 * concurrency/idempotency keys and trigger `if` filters as this app writes them.
 *
 *   event.data.siteId                      a path into the event
 *   event.data.tenantId + "-" + event.data.siteId
 *   event.data.app == 'crawl' && event.data.period != "2024-01"
 *   "global"                               a constant key
 *
 * Expressions are compiled when a function is registered, so anything outside this slice fails at
 * startup with the offending expression named, instead of silently behaving differently from
 * Inngest.
 */
export type Expression = (scope: Record<string, unknown>) => unknown;

type Token =
  | { kind: 'path'; segments: string[] }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'op'; value: '+' | '==' | '!=' | '&&' | '||' | '(' | ')' };

const operators = ['==', '!=', '&&', '||', '+', '(', ')'] as const;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const op = operators.find((candidate) => source.startsWith(candidate, i));
    if (op) {
      tokens.push({ kind: 'op', value: op });
      i += op.length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = source.indexOf(ch, i + 1);
      if (end < 0) throw new Error('unterminated string');
      tokens.push({ kind: 'literal', value: source.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(source.slice(i));
    if (number) {
      tokens.push({ kind: 'literal', value: Number(number[0]) });
      i += number[0].length;
      continue;
    }
    const path = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*/.exec(source.slice(i));
    if (path) {
      const word = path[0];
      if (word === 'true' || word === 'false') tokens.push({ kind: 'literal', value: word === 'true' });
      else if (word === 'null') tokens.push({ kind: 'literal', value: null });
      else tokens.push({ kind: 'path', segments: word.split('.') });
      i += word.length;
      continue;
    }
    throw new Error(`unsupported syntax at "${source.slice(i)}"`);
  }
  return tokens;
}

function lookup(scope: unknown, segments: string[]): unknown {
  let value = scope;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** Recursive descent over: or := and ('||' and)*; and := eq ('&&' eq)*; eq := sum (('=='|'!=') sum)?; sum := atom ('+' atom)*. */
function parse(tokens: Token[]): Expression {
  let position = 0;
  const peekOp = (): string | undefined => {
    const token = tokens[position];
    return token?.kind === 'op' ? token.value : undefined;
  };

  const atom = (): Expression => {
    const token = tokens[position];
    position += 1;
    if (!token) throw new Error('unexpected end of expression');
    if (token.kind === 'literal') return () => token.value;
    if (token.kind === 'path') return (scope) => lookup(scope, token.segments);
    if (token.value === '(') {
      const inner = or();
      if (peekOp() !== ')') throw new Error('missing ")"');
      position += 1;
      return inner;
    }
    throw new Error(`unexpected "${token.value}"`);
  };

  const sum = (): Expression => {
    const parts = [atom()];
    while (peekOp() === '+') {
      position += 1;
      parts.push(atom());
    }
    if (parts.length === 1) return parts[0] as Expression;
    return (scope) => {
      const values = parts.map((part) => part(scope));
      return values.every((v) => typeof v === 'number')
        ? (values as number[]).reduce((a, b) => a + b, 0)
        : values.map((v) => String(v ?? '')).join('');
    };
  };

  const equality = (): Expression => {
    const left = sum();
    const op = peekOp();
    if (op !== '==' && op !== '!=') return left;
    position += 1;
    const right = sum();
    return op === '==' ? (scope) => left(scope) === right(scope) : (scope) => left(scope) !== right(scope);
  };

  const and = (): Expression => {
    const parts = [equality()];
    while (peekOp() === '&&') {
      position += 1;
      parts.push(equality());
    }
    return parts.length === 1
      ? (parts[0] as Expression)
      : (scope) => parts.every((part) => Boolean(part(scope)));
  };

  const or = (): Expression => {
    const parts = [and()];
    while (peekOp() === '||') {
      position += 1;
      parts.push(and());
    }
    return parts.length === 1
      ? (parts[0] as Expression)
      : (scope) => parts.some((part) => Boolean(part(scope)));
  };

  const expression = or();
  if (position < tokens.length) throw new Error('unexpected trailing input');
  return expression;
}

/** Compiles `source`; throws naming the expression when it is outside the supported slice. */
export function compileExpression(source: string): Expression {
  try {
    return parse(tokenize(source));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`embedded runner cannot evaluate expression "${source}": ${reason}`);
  }
}
