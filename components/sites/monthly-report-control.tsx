import { buttonClass } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { Section } from '@/components/ui/surface';
import type { ReportMonthChoice } from '@/lib/reports/monthly';

/**
 * The site overview's "Download monthly report (PDF)": a plain GET form, so it works with the
 * keyboard and without script. The download goes to the API route with the dashboard's session
 * cookie (`GET /v1/sites/{id}/reports/monthly?month=`), which answers the PDF as an attachment; the
 * second button opens the same report as a printable page of the app.
 */
export function MonthlyReportControl({
  siteId,
  months,
  defaultMonth,
}: {
  siteId: string;
  /** The choices, newest first: the month to date, then the ended months since the site was registered. */
  months: ReportMonthChoice[];
  defaultMonth: string | undefined;
}) {
  return (
    <Section
      id="monthly-report"
      title="Monthly report"
      description="A branded PDF for stakeholders: the top broken links and failing accessibility rules with their pages, what was fixed and what is new, SEO and uptime incidents over one month. Receivers set under the notification settings get it by email on the 1st."
    >
      <p className="mb-4 text-sm text-zinc-700">
        {months.length === 1
          ? 'This site was registered this month: its report so far covers the month to date. '
          : ''}
        The month to date covers the current month up to now; a month with nothing measured is one short page.
      </p>
      <form
        method="get"
        action={`/v1/sites/${siteId}/reports/monthly`}
        className="flex flex-wrap items-end gap-3"
      >
        <SelectField label="Month" name="month" defaultValue={defaultMonth} className="w-full max-w-72">
          {months.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </SelectField>
        <button type="submit" className={buttonClass('primary')}>
          Download monthly report (PDF)
        </button>
        <button type="submit" formAction={`/sites/${siteId}/report`} className={buttonClass('secondary')}>
          Open printable page
        </button>
      </form>
    </Section>
  );
}
