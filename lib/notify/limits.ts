/** Spec (Limits): each notification list holds at most 10 recipients or 5 webhooks. */
export const MAX_RECIPIENTS = 10;
export const MAX_WEBHOOKS = 5;
