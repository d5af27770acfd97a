/**
 * `text` with every form of `secret` an upstream may echo replaced by `[redacted]`: as sent, URL-
 * and form-encoded, JSON-escaped, base64 and base64url, each in any letter case.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text;
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64').replace(/=+$/, ''),
    Buffer.from(secret).toString('base64url'),
  ]);
  // Longest first, so a form that contains another is replaced whole.
  const pattern = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  return text.replace(new RegExp(pattern, 'gi'), '[redacted]');
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
