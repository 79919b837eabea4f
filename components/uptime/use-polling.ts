'use client';

import { useEffect } from 'react';

/**
 * Calls `reload` every `ms` while the browser tab is visible: polling stops when the tab is hidden
 * (nobody is looking, and background tabs should not keep the server busy) and catches up at once
 * when it is shown again.
 */
export function usePolling(reload: () => Promise<void>, ms: number, active = true): void {
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      timer ??= setInterval(() => void reload(), ms);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        void reload();
        start();
      } else {
        stop();
      }
    };
    if (document.visibilityState === 'visible') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [reload, ms, active]);
}
