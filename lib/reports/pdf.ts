import { createElement } from 'react';
import { BrowserHolder } from '@/lib/a11y/engine/browser';
import { MonthlyReportDocument, REPORT_CSS } from './document';
import { reportFontCss } from './fonts';
import type { MonthlyReport } from './monthly';

/**
 * The monthly report as a PDF: the document rendered to HTML on the server (React's static markup,
 * fonts inlined) and printed by Chromium's `page.pdf`, A4.
 *
 * Why `setContent` rather than pointing Chromium at the app's print page: the page would need a
 * session, so the renderer would have to carry a signed token in a URL (a credential that can leak
 * through logs and Referer), and the server would call itself over HTTP, which the embedded runner's
 * job and a hosted function reach differently. Handing Chromium the finished HTML needs neither: no
 * credential exists, and the page has nothing to fetch. The browser comes from the render pass's
 * BrowserHolder, whose browser-wide proxy refuses every connection, so even a URL in the report's
 * data (a monitor's URL is text here, never a link that loads) could not make Chromium reach out.
 */

export const PDF_CONTENT_TYPE = 'application/pdf';

export async function reportHtml(report: MonthlyReport): Promise<string> {
  // Imported when used, as @react-email/render does: Next.js keeps react-dom/server out of the
  // server components' graph when it is imported statically.
  const { renderToStaticMarkup } = await import('react-dom/server');
  const body = renderToStaticMarkup(createElement(MonthlyReportDocument, { report }));
  const title = `Monthly report ${report.site.hostname} ${report.period}`.replace(/[<>&"]/g, '');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${await reportFontCss()}\n${REPORT_CSS}\nhtml,body{margin:0;background:#fff}</style></head><body>${body}</body></html>`;
}

/** "example.com-2026-10.pdf". */
export function reportFileName(report: Pick<MonthlyReport, 'site' | 'period'>): string {
  return `${report.site.hostname.replace(/[^A-Za-z0-9.-]/g, '_')}-${report.period}.pdf`;
}

export interface PdfOptions {
  /** A browser to reuse (tests, a batch of reports); otherwise one is launched and closed for this PDF. */
  browsers?: BrowserHolder;
}

/**
 * Renders the PDF. Without `browsers`, Chromium is launched for the one report and closed after it:
 * reports are a download now and then and a monthly batch, so a browser kept in the web server's
 * memory between them would cost more than the second a cold launch takes.
 */
export async function renderReportPdf(report: MonthlyReport, options: PdfOptions = {}): Promise<Buffer> {
  const html = await reportHtml(report);
  const browsers = options.browsers ?? new BrowserHolder();
  try {
    const browser = await browsers.browser();
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      const footer = `${report.organizationName} · ${report.site.hostname} · ${report.periodLabel}`;
      const pdf = await page.pdf({
        format: 'A4',
        preferCSSPageSize: true,
        printBackground: true,
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate: `<div style="width:100%;font-size:8px;color:#52525b;padding:0 16mm;display:flex;justify-content:space-between"><span>${escapeHtml(footer)}</span><span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`,
      });
      return Buffer.from(pdf);
    } finally {
      await context.close();
    }
  } finally {
    if (!options.browsers) await browsers.close();
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
