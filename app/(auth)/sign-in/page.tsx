import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { safeNextPath } from '@/components/auth/safe-next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { config } from '@/lib/config';
import { currentUser } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNextPath(params.next, config().appUrl);
  if (await currentUser()) redirect(next);
  const email = typeof params.email === 'string' ? params.email : '';
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Sign in to Sitewatch</h1>
      <p className="mt-2 text-sm text-zinc-600">
        We email you a six-digit code. No password to remember; new accounts are created on first sign-in.
      </p>
      <div className="mt-8">
        <SignInForm initialEmail={email} next={next} />
      </div>
    </>
  );
}
