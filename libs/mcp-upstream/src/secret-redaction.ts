import { secretPattern } from '@toolsets/core';

/** `text` with every form of each secret's value (as sent, URL-encoded, base64, JSON-escaped…) replaced by `[redacted]`. */
export function redact(text: string, secrets: Record<string, string>): string {
  const pattern = secretPattern(Object.values(secrets).filter(Boolean));
  return pattern ? text.replace(pattern, '[redacted]') : text;
}
