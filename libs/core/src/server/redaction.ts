import type { Logger } from './logger';

/** Replaces every secret a request carried with `[redacted <header>]`. */
export type Redactor = (text: string) => string;

export const NO_REDACTION: Redactor = (text) => text;

/**
 * A redactor for one request's credential values (header name and value), matching each value as
 * sent and URL-encoded, since thrown messages often embed a credential in a URL.
 */
export function redactorFor(secrets: readonly (readonly [header: string, value: string])[]): Redactor {
  const replacements: [string, string][] = [];
  for (const [header, value] of secrets) {
    if (!value) continue;
    const label = `[redacted ${header}]`;
    for (const form of new Set([value, encodeURIComponent(value)])) replacements.push([form, label]);
  }
  if (replacements.length === 0) return NO_REDACTION;
  // Longest first, so a value that contains another is replaced whole.
  replacements.sort((a, b) => b[0].length - a[0].length);
  return (text) => replacements.reduce((out, [form, label]) => out.split(form).join(label), text);
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
