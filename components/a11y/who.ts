/**
 * Who recorded a suppression or manual check, in words: the API stores a user id, or "key:<id>" for
 * an API key. The tab names the viewer "you"; other people show as a teammate (names are not part of
 * the report, and members may not list the organization's members).
 */
export function recordedBy(by: string | null, viewerId: string | undefined): string {
  if (!by) return 'unknown';
  if (by.startsWith('key:')) return 'an API key';
  return by === viewerId ? 'you' : 'a teammate';
}
