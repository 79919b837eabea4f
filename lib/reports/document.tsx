import { formatDateTime, formatDuration, formatNumber } from '@/components/ui/format';
import { CAUSE_WORDS, formatPct } from '@/components/uptime/words';
import type { ProbeCause } from '@/lib/uptime/types';
import type {
  A11ySection,
  BrokenLinksSection,
  CrawlPoint,
  MonitorMonth,
  MonthlyReport,
  SeoSection,
} from './monthly';

/*
 * The stakeholder report as one printable document: the dashboard's print page shows it and the PDF
 * renderer prints it (lib/reports/pdf.ts), as lib/notify/formats/email.tsx is the mail's template.
 * It words figures with the dashboard's own pure formatters (components/ui/format, uptime/words), so
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
.report .brand { display: flex; justify-content: space-between; align-items: baseline; font-weight: 700; color: #1d4ed8; font-size: 12pt; }
.report .brand .org { color: #3f3f46; font-weight: 400; }
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

/** The month's broken-target counts as a line, one point per completed crawl. */
function TrendSvg({ points, from, to }: { points: CrawlPoint[]; from: number; to: number }) {
  const width = 600;
  const height = 150;
  const pad = { left: 36, right: 12, top: 10, bottom: 22 };
  const max = Math.max(1, ...points.map((p) => p.brokenCount));
  const x = (at: number) =>
    pad.left + ((at - from) / Math.max(1, to - from)) * (width - pad.left - pad.right);
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
        {day(to - 1)}
      </text>
      {points.length > 1 ? <polyline points={line} fill="none" stroke="#1d4ed8" strokeWidth="2" /> : null}
      {points.map((p) => (
        <circle key={p.runId} cx={x(p.startedAt)} cy={y(p.brokenCount)} r="3" fill="#1d4ed8" />
      ))}
    </svg>
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
      ) : (
        <p>No crawl completed in {report.periodLabel}.</p>
      )}
    </section>
  );
}

function Seo({ section, report }: { section: SeoSection; report: MonthlyReport }) {
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
      ) : (
        <p>No crawl scored SEO in {report.periodLabel}.</p>
      )}
    </section>
  );
}

function Accessibility({ section, report }: { section: A11ySection; report: MonthlyReport }) {
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
        </>
      ) : (
        <p>No accessibility scan finished in {report.periodLabel}.</p>
      )}
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
      {monitors.length === 0 ? (
        <p>No uptime monitor watched this site in the month.</p>
      ) : (
        <>
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
            Uptime is the share of the month outside confirmed incidents (a failure seen from several
            regions).
          </p>
          {monitors.map((m) => (
            <MonitorIncidents key={m.id} monitor={m} />
          ))}
        </>
      )}
    </section>
  );
}

export function MonthlyReportDocument({ report }: { report: MonthlyReport }) {
  const empty = !report.brokenLinks && !report.seo && !report.a11y && !report.uptime;
  return (
    <main id="main" className="report">
      <header className="cover">
        <p className="brand">
          <span>Sitewatch</span>
          <span className="org">{report.organizationName}</span>
        </p>
        <h1>Monthly report: {report.site.hostname}</h1>
        <p className="period">
          {report.periodLabel}
          {report.partial ? ', month to date' : ''} ({day(report.from)} to {day(report.to - 1)}, UTC)
        </p>
        <p className="note">
          {report.site.rootUrl} · generated {formatDateTime(report.generatedAt)}
        </p>
      </header>
      {report.brokenLinks ? <BrokenLinks section={report.brokenLinks} report={report} /> : null}
      {report.seo ? <Seo section={report.seo} report={report} /> : null}
      {report.a11y ? <Accessibility section={report.a11y} report={report} /> : null}
      {report.uptime ? <Uptime monitors={report.uptime.monitors} /> : null}
      {empty ? <p>None of the apps this report covers is on for this site.</p> : null}
    </main>
  );
}
