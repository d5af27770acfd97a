import { secretPattern } from '@toolsets/core';

/**
 * `text` with every form of `secret` an upstream may echo replaced by `[redacted]`: as sent, URL-
 * and form-encoded, JSON-escaped, base64 and base64url, each in any letter case.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  const pattern = secret ? secretPattern([secret]) : undefined;
  return pattern ? text.replace(pattern, '[redacted]') : text;
}
