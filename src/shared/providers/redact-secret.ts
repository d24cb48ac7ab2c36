/** What stands where a key was. */
export const KEY_REMOVED = '[key removed]';

/**
 * `text` with every form of `secret` a server or an HTTP library might echo — as given, trimmed,
 * URL-encoded, JSON-escaped — replaced by `[key removed]`. Must not throw.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  const forms = new Set<string>();
  for (const s of [secret, secret?.trim()]) {
    if (!s) continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  let out = text;
  // Longest first, so a form that contains another is replaced whole.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join(KEY_REMOVED);
  return out;
}
