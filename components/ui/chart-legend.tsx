/**
 * A line chart's legend: each series' line sample (colour and dash pattern, so it reads without
 * colour) beside its name. The chart's own legend is off: this one is text a screen reader reads.
 */
export function ChartLegend({
  items,
}: {
  items: Array<{ key: string; label: string; color: string; dash?: string }>;
}) {
  return (
    <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-zinc-700" aria-label="Chart legend">
      {items.map((item) => (
        <li key={item.key} className="flex items-center gap-2">
          <svg aria-hidden="true" width="28" height="8" viewBox="0 0 28 8">
            <line
              x1="0"
              y1="4"
              x2="28"
              y2="4"
              stroke={item.color}
              strokeWidth="2.5"
              strokeDasharray={item.dash}
            />
          </svg>
          {item.label}
        </li>
      ))}
    </ul>
  );
}
