import type { ProbeCause } from './types';

/*
 * What an http monitor expects of the answer (issue 26 item 6), beside reaching it: the final
 * status codes that count as up, and a text that must (or must not) appear in the first 1 MiB of
 * the body. Pure: lib/uptime/probe.ts reads the answer, these rules judge it.
 */

export interface Expectations {
  /**
   * Codes and inclusive ranges, `["200-299", "401"]`: the final status must be one of them. Empty:
   * the default rule, 2xx and 3xx up, 4xx and 5xx down with their own causes.
   */
  statuses: string[];
  /** A text looked for, case-sensitive, in the body's first 1 MiB read as UTF-8; null: the body is not read. */
  keyword: string | null;
  /** true: the keyword must not appear (an error banner, "maintenance"); false: it must. */
  keywordAbsent: boolean;
}

export const NO_EXPECTATIONS: Expectations = { statuses: [], keyword: null, keywordAbsent: false };

/** One entry of `statuses`: a code (100-599) or a range `from-to` of them, from <= to. */
export const STATUS_ENTRY = /^([1-5]\d\d)(?:-([1-5]\d\d))?$/;

/** The entry's inclusive range, or null when it is not one (the API's schema refuses those first). */
export function statusRange(entry: string): { from: number; to: number } | null {
  const match = STATUS_ENTRY.exec(entry.trim());
  if (!match) return null;
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  return from <= to ? { from, to } : null;
}

/** Whether `status` is one the monitor expects (any of the entries). */
export function statusExpected(status: number, statuses: readonly string[]): boolean {
  return statuses.some((entry) => {
    const range = statusRange(entry);
    return range !== null && status >= range.from && status <= range.to;
  });
}

/** 2xx and 3xx (a final 3xx is one without a location to follow, or a 304) count as up. */
export function causeOfStatus(status: number): ProbeCause | null {
  if (status >= 500) return 'http_5xx';
  if (status >= 400) return 'http_4xx';
  return null;
}

export interface AnswerVerdict {
  cause: ProbeCause | null;
  /** Plain words for a site owner; null when the answer is as expected. */
  error: string | null;
}

const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;

/**
 * Judges a final answer: its status against the expected ones (without a list, the default rule
 * and its http_4xx / http_5xx causes), then the body against the keyword. `body` is the text read
 * (at most 1 MiB), `truncated` whether there was more.
 */
export function judgeAnswer(
  status: number,
  expectations: Expectations,
  body: { text: string; truncated: boolean } | null,
): AnswerVerdict {
  if (expectations.statuses.length > 0) {
    if (!statusExpected(status, expectations.statuses)) {
      return {
        cause: 'expectation',
        error: `the server answered HTTP ${status}, not one of the expected ${expectations.statuses.join(', ')}`,
      };
    }
  } else {
    const cause = causeOfStatus(status);
    if (cause) return { cause, error: `the server answered HTTP ${status}` };
  }
  const { keyword, keywordAbsent } = expectations;
  if (keyword === null || body === null) return { cause: null, error: null };
  const found = body.text.includes(keyword);
  const where = body.truncated ? 'the first 1 MiB of the body' : 'the body';
  if (keywordAbsent && found) return { cause: 'expectation', error: `${where} contains ${quoted(keyword)}` };
  if (!keywordAbsent && !found) {
    return { cause: 'expectation', error: `${where} does not contain ${quoted(keyword)}` };
  }
  return { cause: null, error: null };
}
