import { getDb } from '@/lib/db/client';
import {
  type ConfirmationPreview,
  confirmationPreview,
  type UnsubscribePreview,
  unsubscribePreview,
} from '@/lib/notify/consent';

/**
 * What the pages behind links in mail show before their button is pressed: read only, so a mail
 * scanner that opens the link changes nothing. The token in the URL is the whole credential; a
 * token that names nothing shows the page's not-found state.
 */
export async function confirmationPage(token: string): Promise<ConfirmationPreview | null> {
  return confirmationPreview(await getDb(), token);
}

export async function unsubscribePage(token: string): Promise<UnsubscribePreview | null> {
  return unsubscribePreview(await getDb(), token);
}
