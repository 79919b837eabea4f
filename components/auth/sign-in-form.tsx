'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiClientError } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { authClient, unwrap } from './auth-client';
import { DEFAULT_NEXT_PATH, safeNextPath } from './safe-next';

type Step = 'email' | 'code';

/**
 * Two steps: ask for a code, then exchange it for a session cookie. `onSignedIn` lets a host page
 * (the invitation page) continue in place instead of navigating.
 */
export function SignInForm({
  initialEmail = '',
  next = DEFAULT_NEXT_PATH,
  lockEmail = false,
  onSignedIn,
}: {
  initialEmail?: string;
  next?: string;
  lockEmail?: boolean;
  onSignedIn?: () => Promise<void> | void;
}) {
  const router = useRouter();
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [pending, setPending] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);

  async function sendCode(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPending(true);
    try {
      await unwrap(authClient.emailOtp.sendVerificationOtp({ email: email.trim(), type: 'sign-in' }));
      setStep('code');
      setStatus(`We sent a code to ${email.trim()}. It expires in 5 minutes.`);
    } catch (e) {
      setError(
        e instanceof ApiClientError && e.status === 429
          ? 'Too many codes requested. Wait a minute and try again.'
          : messageOf(e),
      );
    } finally {
      setPending(false);
    }
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPending(true);
    try {
      await unwrap(authClient.signIn.emailOtp({ email: email.trim(), otp: code.trim() }));
      setStatus('Signed in. Loading your dashboard…');
      if (onSignedIn) {
        await onSignedIn();
      } else {
        // Checked again here: the form may be rendered by a page that did not sanitize `next`.
        router.replace(safeNextPath(next, window.location.origin));
        router.refresh();
      }
    } catch (e) {
      setError(messageOf(e));
      setPending(false);
    }
  }

  return (
    <div>
      <p role="status" aria-live="polite" className="mb-4 text-sm text-zinc-700 empty:hidden">
        {status}
      </p>
      {step === 'email' ? (
        <form onSubmit={sendCode} noValidate={false} className="space-y-4">
          <TextField
            label="Email address"
            name="email"
            type="email"
            autoComplete="email"
            required
            readOnly={lockEmail}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={error}
          />
          <Button type="submit" variant="primary" pending={pending} className="w-full">
            Email me a code
          </Button>
        </form>
      ) : (
        <form onSubmit={verify} className="space-y-4">
          <TextField
            ref={codeInput}
            label="Six-digit code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            hint={`Sent to ${email.trim()}`}
            error={error}
          />
          <Button type="submit" variant="primary" pending={pending} className="w-full">
            Sign in
          </Button>
          <Button
            variant="ghost"
            className="w-full"
            onClick={() => {
              setStep('email');
              setCode('');
              setError(null);
              setStatus('');
            }}
          >
            Use a different address or resend
          </Button>
        </form>
      )}
    </div>
  );
}

function messageOf(e: unknown): string {
  if (e instanceof ApiClientError) {
    if (/invalid otp|invalid code/i.test(e.message))
      return 'That code is not right. Check the email and try again.';
    if (/otp expired|too many attempts/i.test(e.message)) return 'That code has expired. Request a new one.';
    return e.message;
  }
  return 'Something went wrong. Try again.';
}
