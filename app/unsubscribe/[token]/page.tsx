import type { Metadata } from 'next';
import { MailLinkAction } from '@/components/mail-links/mail-link-action';
import { MailLinkPage } from '@/components/mail-links/mail-link-page';
import { Alert } from '@/components/ui/surface';
import { unsubscribePage } from '@/lib/dashboard/mail-links';

export const metadata: Metadata = { title: 'Unsubscribe', robots: { index: false } };
export const dynamic = 'force-dynamic';

/**
 * Where a notification mail's List-Unsubscribe URL and footer link lead. A GET (a person, or a
 * scanner) shows what the link stops; the button's POST unsubscribes, as a mail client's RFC 8058
 * one-click POST to this same URL does (proxy.ts routes it to the API).
 */
export default async function UnsubscribePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const preview = await unsubscribePage(token);
  if (!preview) {
    return (
      <MailLinkPage title="This link does not work">
        <Alert tone="warning">This unsubscribe link is not valid. Check that it was copied whole.</Alert>
      </MailLinkPage>
    );
  }
  return (
    <MailLinkPage title="Unsubscribe" email={preview.email} organizationName={preview.organizationName}>
      {preview.unsubscribed ? (
        <Alert tone="success">
          This address is unsubscribed from {preview.topicName} of this organization.
        </Alert>
      ) : (
        <>
          <p className="mb-4 text-sm text-zinc-700">
            Stop {preview.topicName} from this organization to this address. Its owners and admins see that
            you unsubscribed.
          </p>
          <MailLinkAction
            action={`/v1/unsubscribe/${encodeURIComponent(token)}`}
            label={`Unsubscribe from ${preview.topicName}`}
            done={`Unsubscribed from ${preview.topicName}: this organization no longer sends them to this address.`}
          />
        </>
      )}
    </MailLinkPage>
  );
}
