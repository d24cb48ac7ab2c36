/** Only plain web links leave the app, and only to the OS browser: no other scheme, no credentials in the URL. */
export function isSafeExternalUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}
