import { buttonClass } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { Section } from '@/components/ui/surface';

/**
 * The site overview's "Download monthly report (PDF)": a plain GET form, so it works with the
 * keyboard and without script. The download goes to the API route with the dashboard's session
 * cookie (`GET /v1/sites/{id}/reports/monthly?month=`), which answers the PDF as an attachment; the
 * second button opens the same report as a printable page of the app.
 */
export function MonthlyReportControl({
  siteId,
  months,
  firstReport,
}: {
  siteId: string;
  /** The choices, newest first: `YYYY-MM` and how it reads ("October 2026"). */
  months: { value: string; label: string }[];
  /** How the first report's month reads ("November 2026") while it is still running, else undefined. */
  firstReport?: string;
}) {
  return (
    <Section
      id="monthly-report"
      title="Monthly report"
      description="A branded PDF for stakeholders: broken links and their trend, SEO, accessibility and uptime over one month. Receivers set under the notification settings get it by email on the 1st."
    >
      {firstReport ? (
        // The default month came before the site existed: said plainly, not left to an empty PDF.
        <p className="mb-4 text-sm text-zinc-700">
          This site was registered this month: its first report will be for {firstReport}, once the month is
          complete. Reports for earlier months are empty.
        </p>
      ) : null}
      <form
        method="get"
        action={`/v1/sites/${siteId}/reports/monthly`}
        className="flex flex-wrap items-end gap-3"
      >
        <SelectField label="Month" name="month" defaultValue={months[0]?.value} className="w-48">
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
