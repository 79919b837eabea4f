import type { Metadata } from 'next';
import { MailLinkAction } from '@/components/mail-links/mail-link-action';
import { MailLinkPage } from '@/components/mail-links/mail-link-page';
import { Alert } from '@/components/ui/surface';
import { confirmationPage } from '@/lib/dashboard/mail-links';

export const metadata: Metadata = { title: 'Confirm notifications', robots: { index: false } };
export const dynamic = 'force-dynamic';

/**
 * The link of the confirmation mail an outside address gets when an organization names it
 * (lib/notify/consent.ts). Opening it confirms nothing; the button does.
 */
export default async function ConfirmPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const preview = await confirmationPage(token);
  if (!preview) {
    return (
      <MailLinkPage title="This link does not work">
        <Alert tone="warning">
          This confirmation link is not valid: it may have been replaced by a newer confirmation mail. Use the
          link in the most recent one.
        </Alert>
      </MailLinkPage>
    );
  }
  return (
    <MailLinkPage
      title="Confirm notifications"
      email={preview.email}
      organizationName={preview.organizationName}
    >
      {preview.state === 'confirmed' ? (
        <Alert tone="success">
          This address is confirmed: it receives the notifications it was added to.
        </Alert>
      ) : preview.state === 'expired' ? (
        <Alert tone="warning">
          This link has expired. Ask the organization that added this address to send a new confirmation.
        </Alert>
      ) : (
        <>
          <p className="mb-4 text-sm text-zinc-700">
            An owner or admin of this organization on Sitewatch added this address to receive its website
            monitoring notifications (alerts and reports). Nothing is sent to it unless you confirm. Every
            mail has a link to unsubscribe.
          </p>
          <MailLinkAction
            action={`/v1/confirm/${encodeURIComponent(token)}`}
            label="Confirm"
            done="Confirmed. This address now receives the notifications it was added to."
          />
          <p className="mt-4 text-sm text-zinc-600">
            Do not know them, or do not want these mails? Close this page: nothing will be sent.
          </p>
        </>
      )}
    </MailLinkPage>
  );
}
