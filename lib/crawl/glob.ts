/*
 * Path globs (a site's `excludePaths`) matched in time linear in the path. A backtracking RegExp
 * took 41 s to answer `/a*a*a*a*a*a*a*a*b` for one 60-character path; here a pattern list is
 * compiled once into a small automaton (Thompson's construction) and a path is read once, left to
 * right, keeping the set of states the patterns could be in. Each state is visited at most once
 * per character, so a path costs at most (length + 1) × (number of states) steps, whatever the
 * pattern.
 *
 * Syntax: `*` is any run of characters but `/`; `?` is one character but `/`; `**` as a whole
 * segment is any number of segments (`/blog/**` also matches `/blog`, `/a/**\/b` also `/a/b`), and
 * elsewhere means `*`; `[abc]`, `[a-z]`, `[!a]` or `[^a]` is one character of (or not of) a set,
 * never `/`; `{a,b}` is either alternative (they nest and may hold `/`); `\` makes the next
 * character literal. Everything else is literal, case-sensitive, and `*` matches dot-files.
 */

interface CharClass {
  negated: boolean;
  /** Inclusive code ranges, two numbers each. */
  ranges: number[];
}

type Node =
  | { kind: 'char'; code: number }
  | { kind: 'one' }
  | { kind: 'star' }
  /** Any run of characters, `/` included: the body of `**`. */
  | { kind: 'deep' }
  | { kind: 'class'; set: CharClass }
  | { kind: 'optional'; seq: Node[] }
  | { kind: 'either'; alternatives: Node[][] };

const SLASH = 0x2f;

/** What is wrong with a pattern, in words a user can act on ("a [ is never closed"); null when it is well formed. */
export function globProblem(pattern: string): string | null {
  return new GlobParser(pattern).parse().problem;
}

/**
 * Reads a pattern into a node sequence. Malformed parts (an unclosed `[` or `{`, a stray `}`, a
 * trailing `\`) are read as literal characters, so a pattern stored before validation refused
 * them still matches what it spells; `problem` names the first one.
 */
class GlobParser {
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

function inClass(set: CharClass, code: number): boolean {
  if (code === SLASH) return false;
  let found = false;
  for (let k = 0; k < set.ranges.length && !found; k += 2) {
    found = code >= set.ranges[k]! && code <= set.ranges[k + 1]!;
  }
  return found !== set.negated;
}

// State kinds. A split only forks (moves without reading); the others read one character, or accept.
const SPLIT = 0;
const CHAR = 1;
const NOT_SLASH = 2;
const ANY = 3;
const CLASS = 4;
const ACCEPT = 5;

/** A compiled pattern list: whether any pattern matches a whole path. */
export interface GlobSet {
  matches(path: string): boolean;
  /**
   * `matches`, with the number of automaton states visited: the work done, at most
   * (path length + 1) × `size`.
   */
  matchWithSteps(path: string): { matched: boolean; steps: number };
  /** Number of automaton states. */
  readonly size: number;
}

/**
 * Compiles patterns (each matched against the whole path; see the syntax above) into one
 * automaton that matches when any of them does.
 */
export function compileGlobs(patterns: readonly string[]): GlobSet {
  const automaton = new AutomatonBuilder();
  const accept = automaton.add(ACCEPT, 0, -1);
  const starts = patterns.map((p) => automaton.sequence(new GlobParser(p).parse().seq, accept));
  const start = automaton.add(SPLIT, 0, -1, starts);
  return new Automaton(automaton, start);
}

/** Thompson's construction, back to front: each node is compiled knowing the state that follows it. */
class AutomatonBuilder {
  readonly kinds: number[] = [];
  /** The character a CHAR state reads, or the index in `sets` of a CLASS state's set. */
  readonly args: number[] = [];
  /** The state entered after reading a character. */
  readonly nexts: number[] = [];
  /** The states a SPLIT state forks into. */
  readonly forks: number[][] = [];
  readonly sets: CharClass[] = [];

  add(kind: number, arg: number, next: number, fork: number[] = []): number {
    this.kinds.push(kind);
    this.args.push(arg);
    this.nexts.push(next);
    this.forks.push(fork);
    return this.kinds.length - 1;
  }

  sequence(seq: Node[], next: number): number {
    let state = next;
    for (let k = seq.length - 1; k >= 0; k--) state = this.node(seq[k]!, state);
    return state;
  }

  private node(n: Node, next: number): number {
    switch (n.kind) {
      case 'char':
        return this.add(CHAR, n.code, next);
      case 'one':
        return this.add(NOT_SLASH, 0, next);
      case 'class':
        this.sets.push(n.set);
        return this.add(CLASS, this.sets.length - 1, next);
      case 'star':
        return this.loop(NOT_SLASH, next);
      case 'deep':
        return this.loop(ANY, next);
      case 'optional':
        return this.add(SPLIT, 0, -1, [this.sequence(n.seq, next), next]);
      case 'either':
        return this.add(
          SPLIT,
          0,
          -1,
          n.alternatives.map((alt) => this.sequence(alt, next)),
        );
    }
  }

  /** Zero or more characters of a kind: a fork into reading one (and coming back) or moving on. */
  private loop(kind: number, next: number): number {
    const fork = this.add(SPLIT, 0, -1);
    this.forks[fork] = [this.add(kind, 0, fork), next];
    return fork;
  }
}

/**
 * The automaton in flat typed arrays, simulated over a path with preallocated buffers: the set of
 * live states per character, and a visit mark so a state is entered at most once per character.
 */
class Automaton implements GlobSet {
  readonly size: number;
  private readonly kinds: Uint8Array;
  private readonly args: Int32Array;
  private readonly nexts: Int32Array;
  private readonly forkStart: Int32Array;
  private readonly forkList: Int32Array;
  private readonly sets: CharClass[];
  private readonly seen: Uint32Array;
  private round = 0;
  /** Whether the accepting state was entered this round, and the states visited this match. */
  private accepting = false;
  private steps = 0;
  private current: Int32Array;
  private following: Int32Array;
  private readonly stack: Int32Array;

  constructor(
    built: AutomatonBuilder,
    private readonly start: number,
  ) {
    this.size = built.kinds.length;
    this.kinds = Uint8Array.from(built.kinds);
    this.args = Int32Array.from(built.args);
    this.nexts = Int32Array.from(built.nexts);
    this.forkStart = new Int32Array(this.size + 1);
    for (let s = 0; s < this.size; s++) this.forkStart[s + 1] = this.forkStart[s]! + built.forks[s]!.length;
    this.forkList = Int32Array.from(built.forks.flat());
    this.sets = built.sets;
    this.seen = new Uint32Array(this.size);
    this.current = new Int32Array(this.size);
    this.following = new Int32Array(this.size);
    // Every state and every fork edge can be pushed once per character.
    this.stack = new Int32Array(this.size + this.forkList.length);
  }

  matches(path: string): boolean {
    return this.matchWithSteps(path).matched;
  }

  matchWithSteps(path: string): { matched: boolean; steps: number } {
    this.steps = 0;
    this.nextRound();
    let count = this.enter(this.start, this.current, 0);
    for (let i = 0; i < path.length; i++) {
      // No state left alive: nothing can match the rest of the path.
      if (count === 0) return { matched: false, steps: this.steps };
      const code = path.charCodeAt(i);
      const live = count;
      this.nextRound();
      count = 0;
      for (let k = 0; k < live; k++) {
        const state = this.current[k]!;
        if (this.reads(state, code)) count = this.enter(this.nexts[state]!, this.following, count);
      }
      [this.current, this.following] = [this.following, this.current];
    }
    return { matched: this.accepting, steps: this.steps };
  }

  private nextRound() {
    this.accepting = false;
    this.round++;
    if (this.round === 0xffffffff) {
      this.seen.fill(0);
      this.round = 1;
    }
  }

  /**
   * Adds `from` and the states its forks reach to `into` after its first `count` entries, each
   * state once per round; returns the new count.
   */
  private enter(from: number, into: Int32Array, count: number): number {
    const { kinds, seen, stack, forkStart, forkList, round } = this;
    let top = 0;
    stack[top++] = from;
    while (top > 0) {
      const state = stack[--top]!;
      if (seen[state] === round) continue;
      seen[state] = round;
      this.steps++;
      const kind = kinds[state];
      if (kind === SPLIT) {
        for (let f = forkStart[state]!; f < forkStart[state + 1]!; f++) stack[top++] = forkList[f]!;
      } else if (kind === ACCEPT) {
        this.accepting = true;
      } else {
        into[count++] = state;
      }
    }
    return count;
  }

  private reads(state: number, code: number): boolean {
    switch (this.kinds[state]) {
      case CHAR:
        return this.args[state] === code;
      case NOT_SLASH:
        return code !== SLASH;
      case ANY:
        return true;
      case CLASS:
        return inClass(this.sets[this.args[state]!]!, code);
      default:
        return false;
    }
  }
}
