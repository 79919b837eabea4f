import { formatDateTime, formatDuration, formatNumber } from '@/lib/format';
import type { ProbeCause } from '@/lib/uptime/types';
import { CAUSE_WORDS, formatPct } from '@/lib/uptime/words';
import {
  type A11ySection,
  type BrokenLinksSection,
  type CrawlPoint,
  type MonitorMonth,
  type MonthlyReport,
  REPORT_PAGES_PER_RULE,
  type SeoSection,
} from './monthly';

/*
 * The stakeholder report as one printable document: the dashboard's print page shows it and the PDF
 * renderer prints it (lib/reports/pdf.ts), as lib/notify/formats/email.tsx is the mail's template.
 * It words figures with the formatters the dashboard uses too (lib/format, lib/uptime/words), so
 * a date or an uptime share reads the same in the PDF as on screen. Static markup only (no client code, no chart library that
 * measures the window): the trend is a plain SVG with its figures in a table beside it. Its styles
 * are its own, in REPORT_CSS, so the PDF needs none of the app's stylesheets.
 */

export const REPORT_CSS = `
@page { size: A4; margin: 16mm 16mm 18mm; }
.report { font-family: "Inter", system-ui, sans-serif; color: #18181b; background: #fff; font-size: 10.5pt; line-height: 1.45; }
.report * { box-sizing: border-box; }
.report h1, .report h2, .report h3 { font-weight: 700; }
.report h1 { font-size: 22pt; line-height: 1.2; margin: 4pt 0 6pt; }
.report h2 { font-size: 15pt; margin: 0 0 8pt; padding-bottom: 4pt; border-bottom: 2px solid #1d4ed8; }
.report h3 { font-size: 11.5pt; margin: 14pt 0 6pt; }
.report p { margin: 0 0 6pt; }
.report .brand { display: flex; justify-content: space-between; align-items: center; gap: 12pt; margin: 0 0 6pt; }
.report .brand .org { display: flex; align-items: center; gap: 10pt; min-width: 0; font-weight: 700; font-size: 13pt; color: #18181b; overflow-wrap: anywhere; }
.report .brand .logo { display: block; max-height: 40pt; max-width: 160pt; width: auto; height: auto; }
.report .brand .by { flex: none; color: #1d4ed8; font-weight: 700; font-size: 10pt; }
.report .period { color: #3f3f46; font-size: 11.5pt; }
.report .cover { margin-bottom: 18pt; padding-bottom: 10pt; border-bottom: 1px solid #d4d4d8; }
.report section + section { break-before: page; }
.report .figures { display: flex; flex-wrap: wrap; gap: 8pt; margin: 8pt 0 10pt; padding: 0; list-style: none; }
.report .figures li { flex: 1 1 70pt; border: 1px solid #d4d4d8; border-radius: 6pt; padding: 6pt 8pt; break-inside: avoid; }
.report .figures .value { display: block; font-size: 18pt; font-weight: 700; line-height: 1.2; }
.report .figures .label { display: block; color: #3f3f46; font-size: 9pt; }
.report table { width: 100%; border-collapse: collapse; margin: 4pt 0 8pt; font-size: 9.5pt; }
.report th, .report td { text-align: left; padding: 3pt 6pt; border-bottom: 1px solid #e4e4e7; vertical-align: top; }
.report th { color: #3f3f46; font-weight: 700; }
.report td.num, .report th.num { text-align: right; font-variant-numeric: tabular-nums; }
.report tr { break-inside: avoid; }
.report .trend { display: block; width: 100%; height: auto; margin: 4pt 0; }
.report .verdict-pass { color: #166534; font-weight: 700; }
.report .verdict-fail { color: #b91c1c; font-weight: 700; }
.report .note { color: #52525b; font-size: 9pt; }
.report .url { word-break: break-all; }
.report .missing { margin: 0 0 14pt; padding: 8pt 10pt; border: 1px solid #d4d4d8; border-radius: 6pt; }
.report .missing ul { margin: 0; padding-left: 14pt; list-style: disc; }
@media screen {
  .report { max-width: 210mm; margin: 24px auto; padding: 16mm; box-shadow: 0 1px 4px rgb(0 0 0 / 0.15); }
  .report section + section { margin-top: 28pt; }
}
@media print {
  .report { margin: 0; padding: 0; }
}
`;

const dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
const day = (ms: number) => dateOnly.format(new Date(ms));

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <li>
      <span className="value">{value}</span>
      <span className="label">{label}</span>
    </li>
  );
}

const DAY_MS = 86_400_000;

/**
 * The month's broken-target counts as a line, one point per completed crawl. The axis runs to the
 * end of the UTC day the report runs to (the month's end when it is over): a month-to-date report
 * runs to now, and an axis scaled to the millisecond would move every point at every request, so
 * the same crawls would never draw the same document (lib/reports/cache.ts reuses a print only
 * while its HTML is the same).
 */
function TrendSvg({ points, from, to }: { points: CrawlPoint[]; from: number; to: number }) {
  const width = 600;
  const height = 150;
  const pad = { left: 36, right: 12, top: 10, bottom: 22 };
  const end = Math.ceil(to / DAY_MS) * DAY_MS;
  const max = Math.max(1, ...points.map((p) => p.brokenCount));
  const x = (at: number) =>
    pad.left + ((at - from) / Math.max(1, end - from)) * (width - pad.left - pad.right);
  const y = (v: number) => pad.top + (1 - v / max) * (height - pad.top - pad.bottom);
  const line = points.map((p) => `${x(p.startedAt).toFixed(1)},${y(p.brokenCount).toFixed(1)}`).join(' ');
  const first = points[0]!;
  const last = points.at(-1)!;
  const summary = `Broken links per crawl: ${points.length} crawls, from ${formatNumber(first.brokenCount)} on ${day(first.startedAt)} to ${formatNumber(last.brokenCount)} on ${day(last.startedAt)}; highest ${formatNumber(max)}.`;
  return (
    <svg className="trend" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
      <line x1={pad.left} y1={y(0)} x2={width - pad.right} y2={y(0)} stroke="#a1a1aa" />
      <line
        x1={pad.left}
        y1={y(max)}
        x2={width - pad.right}
        y2={y(max)}
        stroke="#e4e4e7"
        strokeDasharray="4 3"
      />
      <text x={pad.left - 6} y={y(max) + 4} textAnchor="end" fontSize="10" fill="#52525b">
        {max}
      </text>
      <text x={pad.left - 6} y={y(0) + 4} textAnchor="end" fontSize="10" fill="#52525b">
        0
      </text>
      <text x={pad.left} y={height - 6} fontSize="10" fill="#52525b">
        {day(from)}
      </text>
      <text x={width - pad.right} y={height - 6} textAnchor="end" fontSize="10" fill="#52525b">
        {day(end - 1)}
      </text>
      {points.length > 1 ? <polyline points={line} fill="none" stroke="#1d4ed8" strokeWidth="2" /> : null}
      {points.map((p) => (
        <circle
          key={p.runId}
          cx={x(p.startedAt).toFixed(1)}
          cy={y(p.brokenCount).toFixed(1)}
          r="3"
          fill="#1d4ed8"
        />
      ))}
    </svg>
  );
}

/** Changes listed one by one; the rest are counted (the dashboard lists them all). */
const CHANGES_LISTED = 10;

/** The first `shown` of `items`, and a line counting the rest. */
function Capped({
  items,
  total = items.length,
  shown,
  noun,
}: {
  items: string[];
  /** How many there are in all, when `items` holds only the first of them. */
  total?: number;
  shown: number;
  noun: string;
}) {
  const rest = total - Math.min(shown, items.length);
  return (
    <>
      {items.slice(0, shown).map((item) => (
        <div key={item} className="url">
          {item}
        </div>
      ))}
      {rest > 0 ? (
        <div className="note">
          and {formatNumber(rest)} more {noun}
          {rest === 1 ? '' : 's'}
        </div>
      ) : null}
    </>
  );
}

/** "New" and "fixed" side by side, each counted and its first CHANGES_LISTED listed. */
function Changes({
  title,
  added,
  fixed,
  addedCount = added.length,
  fixedCount = fixed.length,
}: {
  title: string;
  added: string[];
  fixed: string[];
  /** How many there are in all, when the lists hold only the first of them. */
  addedCount?: number;
  fixedCount?: number;
}) {
  return (
    <>
      <h3>{title}</h3>
      {addedCount === 0 && fixedCount === 0 ? (
        <p>Nothing new and nothing fixed.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">New ({formatNumber(addedCount)})</th>
              <th scope="col">Fixed ({formatNumber(fixedCount)})</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                {addedCount ? (
                  <Capped items={added} total={addedCount} shown={CHANGES_LISTED} noun="new one" />
                ) : (
                  'none'
                )}
              </td>
              <td>
                {fixedCount ? (
                  <Capped items={fixed} total={fixedCount} shown={CHANGES_LISTED} noun="fixed one" />
                ) : (
                  'none'
                )}
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </>
  );
}

function TopBrokenLinks({ section, total }: { section: BrokenLinksSection; total: number }) {
  if (section.top.length === 0) return null;
  return (
    <>
      <h3>
        {section.top.length < total
          ? `The ${formatNumber(section.top.length)} broken links on the most pages, of ${formatNumber(total)}`
          : 'Broken links and the pages linking to them'}
      </h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Broken link</th>
            <th scope="col">Answer</th>
            <th scope="col">Linked from</th>
          </tr>
        </thead>
        <tbody>
          {section.top.map((target) => (
            <tr key={target.target_url}>
              <td>
                <div className="url">{target.target_url}</div>
                <div className="note">
                  {target.kind}
                  {target.is_new && section.changes ? ', new this month' : ''}
                </div>
              </td>
              <td>{target.status_code ?? target.detail ?? 'no answer'}</td>
              <td>
                <Capped
                  items={target.sources.map((s) => s.source_url)}
                  shown={target.sources.length}
                  noun="page"
                />
                {target.linking_pages > target.sources.length ? (
                  <div className="note">{formatNumber(target.linking_pages)} pages in all</div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function BrokenLinks({ section, report }: { section: BrokenLinksSection; report: MonthlyReport }) {
  const latest = section.latest;
  return (
    <section aria-labelledby="report-broken-links">
      <h2 id="report-broken-links">Broken links</h2>
      {latest ? (
        <>
          <p>
            The last crawl of the month, finished {formatDateTime(latest.finishedAt)}, found{' '}
            {formatNumber(latest.brokenCount)} broken {latest.brokenCount === 1 ? 'link' : 'links'} on{' '}
            {formatNumber(latest.pagesWithBroken)} {latest.pagesWithBroken === 1 ? 'page' : 'pages'}.
          </p>
          <ul className="figures">
            <Figure label="Broken links" value={formatNumber(latest.brokenCount)} />
            <Figure label="Internal" value={formatNumber(latest.internalBroken)} />
            <Figure label="External" value={formatNumber(latest.externalBroken)} />
            <Figure label="Pages crawled" value={formatNumber(latest.pagesCrawled)} />
            {section.change !== null ? (
              <Figure
                label="Change over the month"
                value={section.change > 0 ? `+${formatNumber(section.change)}` : formatNumber(section.change)}
              />
            ) : null}
          </ul>
          <TopBrokenLinks section={section} total={latest.brokenCount} />
          {section.changes ? (
            <Changes
              title={`Changes since the last crawl before the month (${day(section.changes.since)})`}
              added={section.changes.newTargets}
              fixed={section.changes.fixedTargets}
              addedCount={section.changes.newCount}
              fixedCount={section.changes.fixedCount}
            />
          ) : null}
          <h3>Trend over the month&apos;s crawls</h3>
          <TrendSvg points={section.trend} from={report.from} to={report.to} />
          <table>
            <thead>
              <tr>
                <th scope="col">Crawl started</th>
                <th scope="col" className="num">
                  Broken links
                </th>
              </tr>
            </thead>
            <tbody>
              {section.trend.map((p) => (
                <tr key={p.runId}>
                  <td>{formatDateTime(p.startedAt)}</td>
                  <td className="num">{formatNumber(p.brokenCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

function Seo({ section }: { section: SeoSection }) {
  const latest = section.latest;
  return (
    <section aria-labelledby="report-seo">
      <h2 id="report-seo">SEO</h2>
      {latest ? (
        <>
          <p>
            SEO score {latest.score} out of 100, from the on-page checks of the last crawl of the month (
            {formatDateTime(latest.finishedAt)}) over {formatNumber(latest.pagesScanned)}{' '}
            {latest.pagesScanned === 1 ? 'page' : 'pages'}.
          </p>
          <ul className="figures">
            <Figure label="SEO score (0-100)" value={String(latest.score)} />
            <Figure label="Issues" value={formatNumber(latest.issueCount)} />
            <Figure label="Critical" value={formatNumber(latest.critical)} />
            <Figure label="Serious" value={formatNumber(latest.serious)} />
            <Figure label="Moderate" value={formatNumber(latest.moderate)} />
            <Figure label="Minor" value={formatNumber(latest.minor)} />
          </ul>
        </>
      ) : null}
    </section>
  );
}

function Accessibility({ section }: { section: A11ySection }) {
  const latest = section.latest;
  return (
    <section aria-labelledby="report-a11y">
      <h2 id="report-a11y">Accessibility</h2>
      {latest ? (
        <>
          <p>
            {latest.score === null
              ? 'The last scan of the month has no score.'
              : `Accessibility score ${latest.score} out of 100`}
            {latest.score === null ? ' ' : ', '}
            from the last scan of the month
            {latest.finishedAt === null ? '' : ` (${formatDateTime(latest.finishedAt)})`} over{' '}
            {formatNumber(latest.pagesScanned)} {latest.pagesScanned === 1 ? 'page' : 'pages'}.
          </p>
          <p>
            WCAG 2.2 level {latest.verdict.targetLevel}:{' '}
            {latest.verdict.compliant ? (
              <span className="verdict-pass">compliant</span>
            ) : (
              <span className="verdict-fail">not compliant</span>
            )}
            {latest.verdict.risk ? ` (${latest.verdict.risk})` : ''}.
          </p>
          <ul className="figures">
            <Figure
              label="Accessibility score (0-100)"
              value={latest.score === null ? '—' : String(latest.score)}
            />
            <Figure label="Critical" value={formatNumber(latest.critical)} />
            <Figure label="Serious" value={formatNumber(latest.serious)} />
            <Figure label="Moderate" value={formatNumber(latest.moderate)} />
            <Figure label="Minor" value={formatNumber(latest.minor)} />
          </ul>
          <p className="note">Violations are counted by impact after the site&apos;s suppressions.</p>
          {latest.rules.length > 0 ? (
            <>
              <h3>Rules failing on the most pages</h3>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Rule</th>
                    <th scope="col">Impact</th>
                    <th scope="col" className="num">
                      Pages
                    </th>
                    <th scope="col">Where</th>
                  </tr>
                </thead>
                <tbody>
                  {latest.rules.map((rule) => (
                    <tr key={rule.rule}>
                      <td>
                        {rule.help}
                        <div className="note">{rule.rule}</div>
                      </td>
                      <td>{rule.impact ?? '—'}</td>
                      <td className="num">{formatNumber(rule.pages.length)}</td>
                      <td>
                        <Capped items={rule.pages} shown={REPORT_PAGES_PER_RULE} noun="page" />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
          {latest.changes ? (
            <Changes
              title={`Changes since the last scan before the month (${day(latest.changes.since)})`}
              added={latest.changes.added.map((v) => `${v.rule} on ${v.pageUrl}`)}
              fixed={latest.changes.resolved.map((v) => `${v.rule} on ${v.pageUrl}`)}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

const causeWords = (cause: string | null) => (cause ? (CAUSE_WORDS[cause as ProbeCause] ?? cause) : '—');

function MonitorIncidents({ monitor }: { monitor: MonitorMonth }) {
  if (monitor.incidents.length === 0) return null;
  return (
    <>
      <h3>Incidents: {monitor.label}</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Down</th>
            <th scope="col">Recovered</th>
            <th scope="col">Cause</th>
          </tr>
        </thead>
        <tbody>
          {monitor.incidents.map((i) => (
            <tr key={i.downAt}>
              <td>{formatDateTime(i.downAt)}</td>
              <td>{i.recoveredAt === null ? 'still down' : formatDateTime(i.recoveredAt)}</td>
              <td>{causeWords(i.cause)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Uptime({ monitors }: { monitors: MonitorMonth[] }) {
  return (
    <section aria-labelledby="report-uptime">
      <h2 id="report-uptime">Uptime</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Monitor</th>
            <th scope="col" className="num">
              Uptime
            </th>
            <th scope="col" className="num">
              Incidents
            </th>
            <th scope="col" className="num">
              Downtime
            </th>
          </tr>
        </thead>
        <tbody>
          {monitors.map((m) => (
            <tr key={m.id}>
              <td>
                {m.label}
                {m.label !== m.url ? <div className="note url">{m.url}</div> : null}
              </td>
              <td className="num">{formatPct(m.uptimePct)}</td>
              <td className="num">{formatNumber(m.incidents.length)}</td>
              <td className="num">{m.downtimeMs === 0 ? 'none' : formatDuration(m.downtimeMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">
        Uptime is the share of the month outside confirmed incidents (a failure seen from several regions).
      </p>
      {monitors.map((m) => (
        <MonitorIncidents key={m.id} monitor={m} />
      ))}
    </section>
  );
}

/**
 * What each app that is on measured in the month, or why it has nothing: a section is printed (from
 * a page of its own) only with figures; the rest are one line each on the cover, so an empty month
 * is one short page rather than a page per app saying it has nothing.
 */
function notMeasured(report: MonthlyReport): string[] {
  const month = report.periodLabel;
  const lines: string[] = [];
  if (report.brokenLinks && !report.brokenLinks.latest)
    lines.push(`Broken links: no crawl completed in ${month}.`);
  if (report.seo && !report.seo.latest) lines.push(`SEO: no crawl scored SEO in ${month}.`);
  if (report.a11y && !report.a11y.latest)
    lines.push(`Accessibility: no accessibility scan finished in ${month}.`);
  if (report.uptime && report.uptime.monitors.length === 0)
    lines.push(`Uptime: no uptime monitor watched this site in ${month}.`);
  return lines;
}

export function MonthlyReportDocument({ report }: { report: MonthlyReport }) {
  const empty = !report.brokenLinks && !report.seo && !report.a11y && !report.uptime;
  const missing = notMeasured(report);
  const measured = Boolean(
    report.brokenLinks?.latest || report.seo?.latest || report.a11y?.latest || report.uptime?.monitors.length,
  );
  return (
    <main id="main" className="report">
      <header className="cover">
        {/* The organization's brand leads: the report goes out under its name (and logo). */}
        <div className="brand">
          <span className="org">
            {report.organizationLogo ? (
              // A data: URL from the database: Chromium prints it without fetching anything.
              // biome-ignore lint/performance/noImgElement: static markup for the PDF, not a Next.js page
              <img className="logo" src={report.organizationLogo} alt={`${report.organizationName} logo`} />
            ) : null}
            <span>{report.organizationName}</span>
          </span>
          <span className="by">Sitewatch</span>
        </div>
        <h1>Monthly report: {report.site.hostname}</h1>
        <p className="period">
          {report.periodLabel}
          {report.partial ? ', month to date' : ''} ({day(report.from)} to {day(report.to - 1)}, UTC)
        </p>
        <p className="note">
          {report.site.rootUrl} · generated {formatDateTime(report.generatedAt)}
        </p>
      </header>
      {missing.length > 0 ? (
        <div className="missing">
          <p>
            {measured
              ? `Not measured in ${report.periodLabel}${report.partial ? ' so far' : ''}:`
              : `Nothing was measured for this site in ${report.periodLabel}${report.partial ? ' so far' : ''}.`}
          </p>
          <ul>
            {missing.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {report.brokenLinks?.latest ? <BrokenLinks section={report.brokenLinks} report={report} /> : null}
      {report.seo?.latest ? <Seo section={report.seo} /> : null}
      {report.a11y?.latest ? <Accessibility section={report.a11y} /> : null}
      {report.uptime?.monitors.length ? <Uptime monitors={report.uptime.monitors} /> : null}
      {empty ? <p>None of the apps this report covers is on for this site.</p> : null}
    </main>
  );
}
