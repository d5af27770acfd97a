const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

export interface PrescanLimits {
  maxDepth: number;
  maxItems: number;
  maxStringBytes: number;
}

/** Below this size a body cannot stall the parsers enough to matter: it is not scanned. */
const SCAN_FROM_BYTES = 16 * 1024;

/**
 * One pass over a JSON body's bytes, before anything parses it, that finds nesting, array items
 * (all arrays together), keys in one object, or a string far beyond what the server accepts. Such
 * a body stalls the parsers downstream (the SDK's request parse among them) before the argument
 * guard could refuse it. Returns what is exceeded, or undefined.
 */
export function prescanJson(body: Buffer, limits: PrescanLimits): 'depth' | 'items' | 'keys' | 'string' | undefined {
  if (body.length < SCAN_FROM_BYTES) return undefined;
  // Keys seen so far in each open object, by depth; -1 for an open array.
  const keys: number[] = [];
  let depth = 0;
  let items = 0;
  let stringStart = -1;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (stringStart !== -1) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) {
        // The string's bytes lie between its quotes.
        if (i - stringStart - 1 > limits.maxStringBytes) return 'string';
        stringStart = -1;
      }
      continue;
    }
    if (byte === QUOTE) stringStart = i;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limits.maxDepth) return 'depth';
      // The first member counts at the opening (an empty container too: it is cheap either way).
      keys[depth] = byte === OPEN_BRACE ? 1 : -1;
      if (byte === OPEN_BRACKET && ++items > limits.maxItems) return 'items';
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
    else if (byte === COMMA) {
      if (keys[depth] === -1) {
        if (++items > limits.maxItems) return 'items';
      } else if (++keys[depth]! > limits.maxItems) return 'keys';
    }
  }
  return stringStart !== -1 && body.length - stringStart - 1 > limits.maxStringBytes ? 'string' : undefined;
}
