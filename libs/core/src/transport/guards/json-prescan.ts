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
  const members = new MemberCount(limits);
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    let over: 'depth' | 'items' | 'keys' | 'string' | undefined;
    if (byte === QUOTE) {
      const end = stringEnd(body, i);
      // The string's bytes lie between its quotes (an unclosed one runs to the end of the body).
      if (end - i - 1 > limits.maxStringBytes) over = 'string';
      i = end;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) over = members.open(byte === OPEN_BRACKET);
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) members.close();
    else if (byte === COMMA) over = members.next();
    if (over) return over;
  }
  return undefined;
}

/** Nesting, array items (all arrays together) and the keys of each open object, as the scan meets them. */
class MemberCount {
  /** Keys seen so far in each open object, by depth; -1 for an open array. */
  private readonly keys: number[] = [];
  private depth = 0;
  private items = 0;

  constructor(private readonly limits: PrescanLimits) {}

  /** A container opens; its first member counts now (an empty one too: it is cheap either way). */
  open(isArray: boolean): 'depth' | 'items' | undefined {
    if (++this.depth > this.limits.maxDepth) return 'depth';
    this.keys[this.depth] = isArray ? -1 : 1;
    return isArray && ++this.items > this.limits.maxItems ? 'items' : undefined;
  }

  close(): void {
    this.depth--;
  }

  /** A comma: one more member of the innermost container. */
  next(): 'items' | 'keys' | undefined {
    if (this.keys[this.depth] === -1) return ++this.items > this.limits.maxItems ? 'items' : undefined;
    return ++this.keys[this.depth]! > this.limits.maxItems ? 'keys' : undefined;
  }
}

/** The index of the quote that closes the string opening at `start`, or the body's length when none does. */
function stringEnd(body: Buffer, start: number): number {
  for (let i = start + 1; i < body.length; i++) {
    if (body[i] === BACKSLASH) i++;
    else if (body[i] === QUOTE) return i;
  }
  return body.length;
}
