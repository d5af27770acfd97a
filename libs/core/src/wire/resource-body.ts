import type { BinaryData } from './tool-content';

/**
 * What a `@Resource` or `@ResourceTemplate` method returns: text (a string), bytes (a
 * `Uint8Array`), or either with its own mime type (`{ text, mimeType }`, `{ blob, mimeType }`).
 * The URI and the declared mime type are filled in.
 */
export type ResourceBody = string | Uint8Array | { text: string; mimeType?: string } | { blob: BinaryData; mimeType?: string };
