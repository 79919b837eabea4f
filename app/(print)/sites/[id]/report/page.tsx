import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';
import { MonthlyReportDocument, REPORT_CSS } from '@/lib/reports/document';
import { reportFontCss } from '@/lib/reports/fonts';
import { monthlyReport, reportMonth } from '@/lib/reports/monthly';

/*
 * The monthly report as a page of the app, outside the dashboard's chrome (its own route group: no
 * navigation, A4 print styles): what the PDF prints, for reading on screen or printing from the
 * browser. The PDF itself is rendered from the same document without this page (lib/reports/pdf.ts
 * says why). `?month=YYYY-MM`, default the last complete month; a bad month is the 404 page.
 */

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ month?: string | string[] }> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const site = await siteForPage((await params).id);
  const month = reportMonth(asString((await searchParams).month));
  return { title: `Monthly report ${site.hostname} ${month ?? ''}`.trim() };
}

const asString = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function MonthlyReportPage({ params, searchParams }: Props) {
  const site = await siteForPage((await params).id);
  const month = reportMonth(asString((await searchParams).month));
  if (!month) notFound();
  const { db } = await requireDashboard();
  const report = await monthlyReport(db, site.tenant_id, site, month);
  return (
    <>
      <style>{`${await reportFontCss()}\n${REPORT_CSS}\n@media print { body { background: #fff; } }`}</style>
      <MonthlyReportDocument report={report} />
    </>
  );
}
