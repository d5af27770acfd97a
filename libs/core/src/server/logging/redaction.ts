import { secretForms, secretPattern } from '../../helpers/secret-forms';
import type { Logger } from './logger';

/** Replaces every secret a request carried with `[redacted <header>]`. */
export type Redactor = (text: string) => string;

export const NO_REDACTION: Redactor = (text) => text;

/**
 * A redactor for one request's credential values (a label and the value), matching each value in
 * every form `secretForms` lists (as sent, URL-encoded, JSON-escaped, base64), in any letter case,
 * since thrown messages and upstream echoes often embed a credential in a URL or an encoded header.
 */
export function redactorFor(secrets: readonly (readonly [header: string, value: string])[]): Redactor {
  const labels = new Map<string, string>();
  for (const [header, value] of secrets) {
    if (!value) continue;
    for (const form of secretForms(value)) labels.set(form.toLowerCase(), `[redacted ${header}]`);
  }
  const pattern = secretPattern(secrets.map(([, value]) => value));
  if (!pattern) return NO_REDACTION;
  return (text) => (text.length === 0 ? text : text.replace(pattern, (found) => labels.get(found.toLowerCase()) ?? '[redacted]'));
}

/** A logger that passes every string in a line (message and fields, nested) through `redact`. */
export function redactingLogger(inner: Logger, redact: Redactor): Logger {
  if (redact === NO_REDACTION) return inner;
  const clean = (fields?: Record<string, unknown>) => (fields === undefined ? undefined : (redactValue(fields, redact) as Record<string, unknown>));
  return {
    info: (message, fields) => inner.info(redact(message), clean(fields)),
    warn: (message, fields) => inner.warn(redact(message), clean(fields)),
    error: (message, fields) => inner.error(redact(message), clean(fields)),
  };
}

/** `value` with every string in it (nested) passed through `redact`. */
export function redactValue(value: unknown, redact: Redactor): unknown {
  if (redact === NO_REDACTION) return value;
  if (typeof value === 'string') return redact(value);
  if (value instanceof Error) return redact(value.message);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, redact)]));
  }
  return value;
}
