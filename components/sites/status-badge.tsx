import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/surface';
import { statusLabel, statusTone } from './crawl-hrefs';

/**
 * A crawled URL's HTTP status as a badge: the code, or a word for why there is none, in the tone of
 * its class. `after` follows the label inside the badge (where a redirect ended up).
 */
export function StatusBadge({
  code,
  verdict,
  after,
}: {
  code: number | null;
  verdict?: string | null;
  after?: ReactNode;
}) {
  return (
    <Badge tone={statusTone(code, verdict)}>
      {statusLabel(code, verdict)}
      {after}
    </Badge>
  );
}
