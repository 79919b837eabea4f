'use client';

import { useCallback } from 'react';
import type { Announcer } from '@/components/ui/announcement';
import { failureAnnouncement } from './client';

/** What a write says once it worked: the words, and whether the focus moves to them. */
export type Said = string | { text: string; focus?: boolean };

/** What a write says when it failed: "<what>: <the server's message>", focused or not. */
export type Failure = string | { what: string; focus?: boolean };

/**
 * The dashboard's row and page actions (revoke, remove, rotate, sign out, disconnect...): try the
 * write, announce what it returns in the page's status line, else announce the failure with the
 * server's words. Resolves to whether it worked, for the few callers that do more after.
 */
export function useAttempt({ announce }: Pick<Announcer, 'announce'>) {
  return useCallback(
    /** `task` returns what to announce (a `Said`), or nothing when it announced or shows its own result. */
    async (failure: Failure, task: () => Promise<unknown>): Promise<boolean> => {
      try {
        const said = await task();
        if (typeof said === 'string') announce(said);
        else if (isSaid(said)) announce(said.text, { focus: said.focus });
        return true;
      } catch (e) {
        const { what, focus } = typeof failure === 'string' ? { what: failure, focus: false } : failure;
        announce(failureAnnouncement(what, e), { focus });
        return false;
      }
    },
    [announce],
  );
}

const isSaid = (value: unknown): value is { text: string; focus?: boolean } =>
  typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string';
