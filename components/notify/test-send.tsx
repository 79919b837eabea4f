'use client';

import { type ReactNode, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { NotificationTestBody } from '@/components/api/types';

/**
 * One "send a test" control's state: POST /v1/notifications/test with one target, and what it said.
 * Shared by the webhook rows and the test email, so both show a refusal the same way (the API's
 * 502 reason: connection refused, HTTP status, timeout, private address, a rejected address).
 */
type TestState = { state: 'sending' } | { state: 'ok' } | { state: 'failed'; reason: string };

async function sendTest(target: NotificationTestBody): Promise<TestState> {
  try {
    await requestJson('/v1/notifications/test', { body: target });
    return { state: 'ok' };
  } catch (e) {
    return { state: 'failed', reason: failureMessage(e, 'The test could not be sent.') };
  }
}

/** Tests by key (a webhook row's place; an address): start one, read its state, forget them. */
export function useTestSends<K extends string | number>() {
  const [tests, setTests] = useState<Partial<Record<K, TestState>>>({});
  return {
    tests,
    async run(key: K, target: NotificationTestBody) {
      setTests((t) => ({ ...t, [key]: { state: 'sending' } }));
      const outcome = await sendTest(target);
      setTests((t) => ({ ...t, [key]: outcome }));
    },
    forget(key?: K) {
      setTests((t) => (key === undefined ? {} : { ...t, [key]: undefined }));
    },
  };
}

/** The live line beside a "Send test" button. */
export function TestStatus({ test, delivered }: { test: TestState | undefined; delivered: ReactNode }) {
  return (
    <p role="status" className="min-w-0 text-sm break-words">
      {test?.state === 'ok' ? (
        <span className="text-green-800">{delivered}</span>
      ) : test?.state === 'failed' ? (
        <span className="font-medium text-red-700">Test failed: {test.reason}</span>
      ) : test?.state === 'sending' ? (
        'Sending a test…'
      ) : (
        ''
      )}
    </p>
  );
}
