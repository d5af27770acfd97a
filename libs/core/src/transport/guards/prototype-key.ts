/**
 * Whether a parsed JSON message has a `__proto__` key anywhere. JSON.parse keeps it as an own key,
 * but the SDK's schema parse turns it into a prototype or drops it, so it is refused here, on the
 * raw message. The text is scanned first: nearly every message skips the walk.
 */
export function hasPrototypeKey(text: string, parsed: unknown): boolean {
  if (!text.includes('proto') && !text.includes('\\u')) return false;
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return true;
    for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return false;
}

export const PROTOTYPE_KEY_MESSAGE = "Invalid Request: '__proto__' is never accepted as a key, in arguments or anywhere else.";
