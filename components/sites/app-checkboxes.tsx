'use client';

import { CheckboxField } from '@/components/ui/field';
import { APPS, type App, crawlPlanNote, PERFORMANCE_INACTIVE } from './apps';

export type AppSwitches = Record<App['key'], boolean>;

/** Which apps are on, keyed by their request field; `isOn` decides for each app. */
export function appSwitches(isOn: (app: App) => boolean): AppSwitches {
  return Object.fromEntries(APPS.map((app) => [app.key, isOn(app)])) as AppSwitches;
}

/**
 * One labelled checkbox per app, each with its description as the hint; below them, what the
 * combination does about crawling when it needs saying (SEO alone never crawls). Without a CrUX key
 * on the server, Performance's hint says it would stay inactive.
 */
export function AppCheckboxes({
  value,
  onChange,
  className,
  fieldDataConfigured,
}: {
  value: AppSwitches;
  onChange: (key: App['key'], on: boolean) => void;
  className: string;
  /** The server has a CrUX API key (lib/dashboard/fielddata `fieldDataConfigured`). */
  fieldDataConfigured: boolean;
}) {
  const note = crawlPlanNote({
    scanner: value.scannerEnabled,
    a11y: value.a11yEnabled,
    seo: value.seoEnabled,
  });
  return (
    <>
      <div className={className}>
        {APPS.map((app) => (
          <CheckboxField
            key={app.key}
            label={app.label}
            hint={
              app.key === 'performanceEnabled' && !fieldDataConfigured
                ? `${app.description} ${PERFORMANCE_INACTIVE}`
                : app.description
            }
            name={app.key}
            checked={value[app.key]}
            onChange={(e) => onChange(app.key, e.target.checked)}
          />
        ))}
      </div>
      <p role="status" className="mt-3 text-sm text-amber-900 empty:hidden">
        {note}
      </p>
    </>
  );
}
