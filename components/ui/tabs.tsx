'use client';

import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { tabClass, tabRowClass } from './tab-style';

export interface TabItem {
  id: string;
  label: ReactNode;
  panel: ReactNode;
}

/**
 * Tabs in the WAI-ARIA pattern: one tab stop for the list, arrow keys (and Home/End) move between
 * tabs and select them, and each panel is a focusable region named by its tab. Every panel stays in
 * the DOM (hidden) so the tabs' aria-controls always point at something and a panel keeps its
 * filters when the reader switches away and back.
 */
export function Tabs({ label, items, className }: { label: string; items: TabItem[]; className?: string }) {
  const [selected, setSelected] = useState(items[0]?.id);
  const prefix = useId();
  const list = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent) {
    const index = items.findIndex((item) => item.id === selected);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % items.length,
      ArrowLeft: (index - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setSelected(items[next]!.id);
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  }

  return (
    <div className={className}>
      <div className="mb-4 border-b border-zinc-200">
        <div ref={list} role="tablist" aria-label={label} onKeyDown={onKeyDown} className={tabRowClass}>
          {items.map((item) => {
            const current = item.id === selected;
            return (
              <button
                key={item.id}
                type="button"
                role="tab"
                id={`${prefix}-tab-${item.id}`}
                aria-selected={current}
                aria-controls={`${prefix}-panel-${item.id}`}
                tabIndex={current ? 0 : -1}
                onClick={() => setSelected(item.id)}
                className={tabClass(current)}
              >
                {item.label}
              </button>
            );
          })}
        </div>
      </div>
      {items.map((item) => (
        <div
          key={item.id}
          role="tabpanel"
          id={`${prefix}-panel-${item.id}`}
          aria-labelledby={`${prefix}-tab-${item.id}`}
          hidden={item.id !== selected}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern makes a panel a tab stop so keyboard users reach its content from the tab
          tabIndex={0}
          className="focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent-600"
        >
          {item.panel}
        </div>
      ))}
    </div>
  );
}
