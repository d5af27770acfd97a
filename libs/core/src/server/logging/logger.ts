/** Where the framework writes its own log lines. Never stdout: over stdio that is the protocol. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The longest string field a log line carries; longer ones are cut with their length noted. */
export const LOG_FIELD_LIMIT = 2_000;

/** One JSON object per line on stderr. */
export const stderrLogger: Logger = {
  info: (message, fields) => write('info', message, fields),
  warn: (message, fields) => write('warn', message, fields),
  error: (message, fields) => write('error', message, fields),
};

function write(level: string, message: string, fields?: Record<string, unknown>): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }, capStrings);
  process.stderr.write(line + '\n');
}

function capStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.length > LOG_FIELD_LIMIT
    ? `${value.slice(0, LOG_FIELD_LIMIT)}… (${value.length} characters)`
    : value;
}
