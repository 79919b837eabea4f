/** Only same-site paths may be a post-sign-in destination ("//evil.example" is another site). */
export function safeNextPath(value: string | string[] | undefined, fallback = '/sites'): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path?.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback;
  return path;
}
