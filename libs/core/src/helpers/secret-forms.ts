/**
 * Every form in which a secret may be echoed back in text: as sent, URL- and form-encoded (both spellings),
 * JSON-escaped, base64 and base64url (padded or not). Matched in any letter case by `secretPattern`.
 */
export function secretForms(secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%20/g, '+'),
      // application/x-www-form-urlencoded (URLSearchParams) also escapes ~ ! ' ( ) *, which encodeURIComponent leaves.
      new URLSearchParams([['', secret]]).toString().slice(1),
      JSON.stringify(secret).slice(1, -1),
      base64,
      base64.replace(/=+$/, ''),
      Buffer.from(secret).toString('base64url'),
    ]),
  ];
}

/**
 * The shortest value redacted: a shorter one is no secret (it is guessed at once), and replacing it
 * would mangle ordinary words (a key `k` inside `book`).
 */
export const MIN_SECRET_CHARS = 4;

/**
 * One case-insensitive pattern matching every form of every secret of at least `MIN_SECRET_CHARS`,
 * longest first so a form that contains another is replaced whole; undefined when there is none.
 */
export function secretPattern(secrets: Iterable<string>): RegExp | undefined {
  const forms = [...new Set([...secrets].filter((secret) => secret.length >= MIN_SECRET_CHARS).flatMap(secretForms))];
  if (forms.length === 0) return undefined;
  return new RegExp(forms.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'gi');
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
