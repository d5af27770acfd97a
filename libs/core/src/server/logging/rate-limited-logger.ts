import type { Logger } from './logger';

export interface RateLimitOptions {
  /** Lines of one message allowed per window (default 20). */
  burst?: number;
  /** The window, in milliseconds (default 10 s). */
  windowMs?: number;
}

/**
 * A logger that lets through at most `burst` warnings or errors with the same message per window,
 * so a client repeating a bad request cannot flood the log; the next line let through says how
 * many were suppressed. Info lines pass untouched.
 */
export function rateLimitedLogger(inner: Logger, options: RateLimitOptions = {}): Logger {
  const burst = options.burst ?? 20;
  const windowMs = options.windowMs ?? 10_000;
  const windows = new Map<string, { start: number; count: number; suppressed: number }>();

  const limited =
    (level: 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void => {
      const now = Date.now();
      let window = windows.get(message);
      if (!window || now - window.start >= windowMs) {
        const suppressed = window?.suppressed ?? 0;
        window = { start: now, count: 0, suppressed: 0 };
        windows.set(message, window);
        if (suppressed > 0) fields = { ...fields, suppressed };
      }
      if (++window.count > burst) {
        window.suppressed++;
        return;
      }
      inner[level](message, fields);
    };

  return { info: (message, fields) => inner.info(message, fields), warn: limited('warn'), error: limited('error') };
}
