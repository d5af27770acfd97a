/** A 1×1 red PNG. */
export const RED_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** A 44-byte WAV header with no samples: the smallest valid audio file. */
export const SILENT_WAV = Buffer.from('UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=', 'base64');

export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms`, or less if `signal` aborts first (a cancelled task). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
