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
 * or a string far beyond what the server accepts. Such a body stalls the parsers downstream (the
 * SDK's request parse among them) before the argument guard could refuse it. Returns what is
 * exceeded, or undefined.
 */
export function prescanJson(body: Buffer, limits: PrescanLimits): 'depth' | 'items' | 'string' | undefined {
  if (body.length < SCAN_FROM_BYTES) return undefined;
  // Whether each open container is an array, by depth.
  const isArray: boolean[] = [];
  let depth = 0;
  let items = 0;
  let stringStart = -1;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (stringStart !== -1) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) {
        if (i - stringStart > limits.maxStringBytes) return 'string';
        stringStart = -1;
      }
      continue;
    }
    if (byte === QUOTE) stringStart = i;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limits.maxDepth) return 'depth';
      isArray[depth] = byte === OPEN_BRACKET;
      if (byte === OPEN_BRACKET && ++items > limits.maxItems) return 'items';
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
    else if (byte === COMMA && isArray[depth] && ++items > limits.maxItems) return 'items';
  }
  return stringStart !== -1 && body.length - stringStart > limits.maxStringBytes ? 'string' : undefined;
}
