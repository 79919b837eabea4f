'use client';

import { type ReactNode, useEffect, useRef, useState } from 'react';
import { cx } from './cx';

/**
 * A horizontally scrolling box that keyboard users can scroll: while its content is wider than the
 * box (a wide table on a phone) it becomes a named, focusable region, so arrow keys scroll it
 * (WCAG 2.1.1; axe's scrollable-region-focusable). While everything fits it adds no tab stop.
 * The region's name says it scrolls, so it never repeats the name of the section around it (a
 * section titled "Registered sites" holding the table captioned the same: axe's landmark-unique).
 */
export function ScrollBox({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      className={cx(
        'overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600',
        className,
      )}
      {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': `${label}, scrollable` } : {})}
    >
      {children}
    </div>
  );
}
