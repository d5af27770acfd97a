/** One `tools/list` entry, as far as its size goes. */
interface ListedTool {
  name: string;
}

/** How large a catalog is for a model: `tools/list` in bytes and estimated tokens, and its largest tools. */
export interface CatalogSize {
  tools: number;
  bytes: number;
  /** Bytes ÷ 4: the usual estimate for JSON in a model's context. */
  tokens: number;
  largest: { name: string; bytes: number }[];
}

export function catalogSize(tools: readonly ListedTool[], top = 10): CatalogSize {
  const sizes = tools.map((tool) => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool)) }));
  const bytes = Buffer.byteLength(JSON.stringify({ tools }));
  return { tools: tools.length, bytes, tokens: Math.round(bytes / 4), largest: [...sizes].sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1)).slice(0, top) };
}

/** `452 tools; tools/list is 1,203,383 bytes (about 300,846 tokens). Largest: post_issuing_cards 16,380 bytes, …` */
export function formatCatalogSize(size: CatalogSize): string {
  const n = (value: number) => value.toLocaleString('en');
  const largest = size.largest.map((tool) => `${tool.name} ${n(tool.bytes)} bytes`).join(', ');
  return `${n(size.tools)} tool${size.tools === 1 ? '' : 's'}; tools/list is ${n(size.bytes)} bytes (about ${n(size.tokens)} tokens at 4 bytes a token).${largest ? ` Largest: ${largest}.` : ''}`;
}
