import type { Logger } from '@toolsets/core';

/** A server `Logger` that keeps what it is given, for a test that checks what was logged (and that no token or secret was). */
export interface RecordingLogger extends Logger {
  /** Each line as `[message, fields]` JSON, in order. */
  readonly lines: string[];
  /** Every line joined, to search in one go. */
  text(): string;
}

/** A `Logger` for `buildServer`/`serveHttp` that records every line instead of writing it. */
export function recordingLogger(): RecordingLogger {
  const lines: string[] = [];
  const record = (message: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify([message, fields]));
  return { lines, info: record, warn: record, error: record, text: () => lines.join('\n') };
}
