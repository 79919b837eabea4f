/**
 * Longest display name accepted: it shows in the dashboard header and in invitation mails. A module
 * of its own, importing nothing, so the account form in the browser reads the same number.
 */
export const NAME_MAX_LENGTH = 80;
