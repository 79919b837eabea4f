/**
 * A five-field cron matcher (minute hour day-of-month month day-of-week), as Inngest accepts them:
 *
 *   `* * * * *`, steps (`*\/5`, `10-40/10`, `7/15`), lists (`1,15,30`), ranges (`9-17`),
 *   month and weekday names (`JAN`, `mon-fri`), weekday 7 as Sunday,
 *   macros (`@hourly`, `@daily`, `@midnight`, `@weekly`, `@monthly`, `@yearly`, `@annually`),
 *   and an optional `TZ=Area/City ` (or `CRON_TZ=`) prefix; without it the schedule is in UTC,
 *   as on Inngest.
 *
 * Day-of-month and day-of-week follow the classic Vixie rule: when both are restricted, a day
 * matches if either matches.
 */
export interface CronSchedule {
  expression: string;
  timezone: string;
  /** Whether the minute containing `date` is on the schedule. */
  matches(date: Date): boolean;
}

interface Field {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  // 7 is accepted as Sunday and folded onto 0 below.
  { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function parseValue(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toUpperCase()) ?? -1;
  // Month names are 1-based, weekday names 0-based, matching each field's minimum.
  const value = named >= 0 ? named + field.min : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < field.min || value > field.max) {
    throw new Error(`${field.name} value "${text}" is out of range ${field.min}-${field.max}`);
  }
  return value;
}

function parseField(text: string, field: Field): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const [rangeText, stepText, extra] = part.split('/');
    if (extra !== undefined || rangeText === undefined || rangeText === '')
      throw new Error(`bad ${field.name} "${part}"`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`bad step in ${field.name} "${part}"`);
    let from: number;
    let to: number;
    if (rangeText === '*') {
      from = field.min;
      to = field.max;
    } else if (rangeText.includes('-')) {
      const [a, b] = rangeText.split('-');
      from = parseValue(a ?? '', field);
      to = parseValue(b ?? '', field);
      if (from > to) throw new Error(`${field.name} range "${rangeText}" runs backwards`);
    } else {
      from = parseValue(rangeText, field);
      // `7/15` means "from 7, every 15", to the end of the field.
      to = stepText === undefined ? from : field.max;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

/** Minute, hour, day, month (1-12) and weekday (0-6) of `date` as seen in `timezone`. */
function partsIn(date: Date, timezone: string, formatter: Intl.DateTimeFormat | undefined) {
  if (!formatter) {
    return {
      minute: date.getUTCMinutes(),
      hour: date.getUTCHours(),
      day: date.getUTCDate(),
      month: date.getUTCMonth() + 1,
      weekday: date.getUTCDay(),
    };
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(date)) parts[part.type] = part.value;
  const weekday = FIELDS[4]?.names?.indexOf((parts.weekday ?? '').toUpperCase()) ?? -1;
  if (weekday < 0) throw new Error(`cannot read the weekday of ${date.toISOString()} in ${timezone}`);
  return {
    minute: Number(parts.minute),
    hour: Number(parts.hour),
    day: Number(parts.day),
    month: Number(parts.month),
    weekday,
  };
}

export function parseCron(expression: string): CronSchedule {
  let rest = expression.trim();
  let timezone = 'UTC';
  const tz = /^(?:CRON_)?TZ=(\S+)\s+/.exec(rest);
  if (tz) {
    timezone = tz[1] as string;
    rest = rest.slice(tz[0].length);
  }
  rest = MACROS[rest.toLowerCase()] ?? rest;

  const texts = rest.split(/\s+/);
  if (texts.length !== 5) throw new Error(`cron "${expression}": expected 5 fields, got ${texts.length}`);

  let fields: Set<number>[];
  let formatter: Intl.DateTimeFormat | undefined;
  try {
    fields = texts.map((text, i) => parseField(text, FIELDS[i] as Field));
    if (timezone !== 'UTC') {
      // Throws RangeError for an unknown zone, which is what we want at parse time.
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: timezone,
        hourCycle: 'h23',
        minute: 'numeric',
        hour: 'numeric',
        day: 'numeric',
        month: 'numeric',
        weekday: 'short',
      });
    }
  } catch (error) {
    throw new Error(`cron "${expression}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const [minutes, hours, days, months, weekdays] = fields as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (weekdays.delete(7)) weekdays.add(0);
  const dayRestricted = !(texts[2] as string).startsWith('*');
  const weekdayRestricted = !(texts[4] as string).startsWith('*');

  return {
    expression,
    timezone,
    matches(date) {
      const at = partsIn(date, timezone, formatter);
      if (!minutes.has(at.minute) || !hours.has(at.hour) || !months.has(at.month)) return false;
      const dayMatches = days.has(at.day);
      const weekdayMatches = weekdays.has(at.weekday);
      if (dayRestricted && weekdayRestricted) return dayMatches || weekdayMatches;
      return dayMatches && weekdayMatches;
    },
  };
}
