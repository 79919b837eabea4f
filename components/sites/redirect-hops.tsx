import type { Redirect } from '@/components/api/types';

/**
 * A redirect chain as an ordered list of its responses, each status beside the URL that answered
 * it, the final answer last. Nothing for a URL that did not redirect.
 */
export function RedirectHops({ hops, label = 'Redirect chain' }: { hops: Redirect['hops']; label?: string }) {
  if (hops.length < 2) return null;
  return (
    <div className="mt-2">
      <p className="text-xs font-medium text-zinc-700">{label}</p>
      <ol className="mt-1 space-y-0.5 text-xs">
        {hops.map((hop, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: hops are positional and a loop repeats URLs
          <li key={i} className="flex gap-2">
            <span className="w-8 shrink-0 font-mono font-semibold text-zinc-800 tabular-nums">
              {hop.status ?? '—'}
            </span>
            <span className="font-mono break-all text-zinc-700">{hop.url}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
