/** The first problem zod found, as `path: message` (`[2].name: Required`), for a sentence in the plugin's log or state. */
export function describeIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const first = error.issues[0];
  if (!first) return 'invalid';
  const path = first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return `${path ? `${path.replace(/^\./, '')}: ` : ''}${first.message}`;
}
