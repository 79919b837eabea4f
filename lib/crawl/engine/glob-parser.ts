/*
 * Reading a path glob (syntax in glob.ts) into a node sequence, with the first problem a user
 * should hear about; glob.ts compiles the sequences into its automaton.
 */

export interface CharClass {
  negated: boolean;
  /** Inclusive code ranges, two numbers each. */
  ranges: number[];
}

export type Node =
  | { kind: 'char'; code: number }
  | { kind: 'one' }
  | { kind: 'star' }
  /** Any run of characters, `/` included: the body of `**`. */
  | { kind: 'deep' }
  | { kind: 'class'; set: CharClass }
  | { kind: 'optional'; seq: Node[] }
  | { kind: 'either'; alternatives: Node[][] };

export const SLASH = 0x2f;

/**
 * Reads a pattern into a node sequence. Malformed parts (an unclosed `[` or `{`, a stray `}`, a
 * trailing `\`) are read as literal characters, so a pattern stored before validation refused
 * them still matches what it spells; `problem` names the first one.
 */
export class GlobParser {
  private i = 0;
  private problem: string | null = null;
  /** Index of each `{` that is closed, to the index of its `}`: a one-pass scan, so a run of unclosed `{` costs no re-reading. */
  private readonly closers = new Map<number, number>();

  constructor(private readonly src: string) {}

  parse(): { seq: Node[]; problem: string | null } {
    this.pairBraces();
    const seq = this.sequence(false);
    return { seq, problem: this.problem };
  }

  private note(problem: string) {
    this.problem ??= problem;
  }

  private pairBraces() {
    const open: number[] = [];
    const { src } = this;
    for (let i = 0; i < src.length; i++) {
      const c = src[i];
      if (c === '\\') i++;
      else if (c === '[') i = (this.charClass(i)?.end ?? i + 1) - 1;
      else if (c === '{') open.push(i);
      else if (c === '}') {
        const start = open.pop();
        if (start === undefined) this.note('a } has no matching {');
        else this.closers.set(start, i);
      }
    }
    if (open.length > 0) this.note('a { is never closed');
  }

  /** Reads up to the end, or inside braces up to the `,` or `}` that ends the alternative. */
  private sequence(inBraces: boolean): Node[] {
    const out: Node[] = [];
    const { src } = this;
    while (this.i < src.length) {
      const c = src[this.i];
      if (inBraces && (c === ',' || c === '}')) break;
      if (c === '\\') {
        if (this.i + 1 < src.length) {
          out.push(literal(src.charCodeAt(this.i + 1)));
          this.i += 2;
        } else {
          this.note('it ends with a \\ that escapes nothing');
          out.push(literal(src.charCodeAt(this.i++)));
        }
      } else if (c === '*') {
        out.push(...this.stars(inBraces));
      } else if (c === '?') {
        out.push({ kind: 'one' });
        this.i++;
      } else if (c === '[') {
        const read = this.charClass(this.i);
        if (read) {
          out.push({ kind: 'class', set: read.set });
          this.i = read.end;
        } else {
          this.note('a [ is never closed');
          out.push(literal(src.charCodeAt(this.i++)));
        }
      } else if (c === '{' && this.closers.has(this.i)) {
        out.push(this.braces());
      } else if (!inBraces && c === '/' && this.i === src.length - 3 && src.endsWith('/**')) {
        // A trailing `/**` also matches the directory itself: `/blog/**` excludes `/blog`.
        out.push({ kind: 'optional', seq: [literal(SLASH), { kind: 'deep' }] });
        this.i += 3;
      } else {
        out.push(literal(src.charCodeAt(this.i++)));
      }
    }
    return out;
  }

  /** A run of `*`: `**` standing as a whole segment crosses `/`; any other run is one `*`. */
  private stars(inBraces: boolean): Node[] {
    const { src } = this;
    const start = this.i;
    while (src[this.i] === '*') this.i++;
    const wholeSegment =
      !inBraces &&
      this.i - start >= 2 &&
      (start === 0 || src[start - 1] === '/') &&
      (this.i === src.length || src[this.i] === '/');
    if (!wholeSegment) {
      // A `*` that is the whole last segment names something inside a directory: `/private/*`
      // matches `/private/x`, not `/private/` itself (nor `/*` the home page).
      const lastSegment = !inBraces && (start === 0 || src[start - 1] === '/') && this.i === src.length;
      return lastSegment ? [{ kind: 'one' }, { kind: 'star' }] : [{ kind: 'star' }];
    }
    if (this.i === src.length) return [{ kind: 'deep' }];
    // `**/`: zero or more whole segments, each with its slash.
    this.i++;
    return [{ kind: 'optional', seq: [{ kind: 'deep' }, literal(SLASH)] }];
  }

  private braces(): Node {
    const close = this.closers.get(this.i) as number;
    const alternatives: Node[][] = [];
    do {
      this.i++; // past `{` or `,`
      alternatives.push(this.sequence(true));
    } while (this.i < close);
    this.i = close + 1;
    return { kind: 'either', alternatives };
  }

  /** The class starting at `[`, and the index after its `]`; null when it is never closed. */
  private charClass(at: number): { set: CharClass; end: number } | null {
    const { src } = this;
    let i = at + 1;
    const negated = src[i] === '!' || src[i] === '^';
    if (negated) i++;
    const ranges: number[] = [];
    // A `]` first in the set is a member, not the end.
    for (let first = true; i < src.length && (first || src[i] !== ']'); first = false) {
      const from = i;
      const lo = this.classChar(i);
      i = lo.next;
      if (src[i] === '-' && i + 1 < src.length && src[i + 1] !== ']') {
        const hi = this.classChar(i + 1);
        if (hi.code < lo.code) this.note(`the range ${src.slice(from, hi.next)} runs backwards`);
        ranges.push(lo.code, hi.code);
        i = hi.next;
      } else {
        ranges.push(lo.code, lo.code);
      }
    }
    if (i >= src.length) return null;
    return { set: { negated, ranges }, end: i + 1 };
  }

  private classChar(i: number): { code: number; next: number } {
    const { src } = this;
    if (src[i] === '\\' && i + 1 < src.length) return { code: src.charCodeAt(i + 1), next: i + 2 };
    return { code: src.charCodeAt(i), next: i + 1 };
  }
}

function literal(code: number): Node {
  return { kind: 'char', code };
}

export function inClass(set: CharClass, code: number): boolean {
  if (code === SLASH) return false;
  let found = false;
  for (let k = 0; k < set.ranges.length && !found; k += 2) {
    found = code >= set.ranges[k]! && code <= set.ranges[k + 1]!;
  }
  return found !== set.negated;
}
