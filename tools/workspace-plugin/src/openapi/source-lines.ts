import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { appendPointer, unescapeKey } from '../utils/json-pointer';

/** Where a JSON pointer is in the file the user gave: its line, 1-based, or undefined when it cannot be found. */
export type LocatePointer = (pointer: string) => number | undefined;

/**
 * Finds JSON pointers in the document's own text, JSON or YAML alike (JSON is YAML, and the `yaml`
 * package keeps every node's offset), so a refusal can name the line a person wrote.
 */
export function sourceLocator(text: string): LocatePointer {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, keepSourceTokens: false, uniqueKeys: false });
  return (pointer) => {
    const path = pointer === '' ? [] : pointer.split('/').slice(1).map(unescapeKey);
    let node: unknown = document.contents;
    for (const key of path) {
      if (isMap(node)) node = node.items.find((pair) => String((pair.key as { value?: unknown } | null)?.value ?? pair.key) === key)?.value;
      else if (isSeq(node)) node = node.items[Number(key)];
      else return undefined;
    }
    const offset = (node as Node | undefined)?.range?.[0];
    return offset === undefined ? undefined : lines.linePos(offset).line;
  };
}

/**
 * The JSON pointer at each line of `JSON.stringify(value, null, 2)` (index 0 is line 1): the copy
 * `@readme/openapi-parser` quotes in its messages, whose line numbers mean nothing in the user's file.
 */
export function prettyJsonPointers(value: unknown): string[] {
  const pointers: string[] = [];
  const walk = (item: unknown, pointer: string): void => {
    pointers.push(pointer);
    if (typeof item !== 'object' || item === null) return;
    const entries = Array.isArray(item) ? item.map((child, index) => [index, child] as const) : Object.entries(item).filter(([, child]) => child !== undefined && typeof child !== 'function');
    if (entries.length === 0) return;
    for (const [key, child] of entries) walk(child, appendPointer(pointer, key));
    pointers.push(pointer); // the closing bracket
  };
  walk(value, '');
  return pointers;
}
