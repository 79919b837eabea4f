/**
 * A small radio group styled as a segmented control: one tab stop, arrow keys move the choice, and
 * the legend names the group.
 */
export function Choice({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (value: string) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-xs font-medium text-zinc-600">{legend}</legend>
      <div className="inline-flex flex-wrap rounded-md border border-zinc-300 bg-white p-0.5 shadow-xs">
        {options.map((option) => (
          <label
            key={option.value}
            className="relative cursor-pointer rounded px-3 py-1 text-sm text-zinc-700 has-checked:bg-accent-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-1 has-focus-visible:outline-accent-600"
          >
            <input
              type="radio"
              // Over the whole label, invisible: the pointer lands on the radio itself.
              className="absolute inset-0 m-0 cursor-pointer appearance-none opacity-0"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
