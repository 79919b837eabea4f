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
import { type CharClass, GlobParser, inClass, type Node, SLASH } from './glob-parser';

/** What is wrong with a pattern, in words a user can act on ("a [ is never closed"); null when it is well formed. */
export function globProblem(pattern: string): string | null {
  return new GlobParser(pattern).parse().problem;
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
