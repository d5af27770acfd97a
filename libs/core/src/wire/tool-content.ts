import type { AudioContent, EmbeddedResource, ImageContent, ResourceLink } from '@modelcontextprotocol/server';

/** A content block a tool may send beside its typed result: image, audio, embedded resource, resource link. */
export type ExtraContent = ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/**
 * A typed result with content blocks to send after it. `structuredContent` stays exactly the
 * result; the JSON text block stays first; the blocks follow in order. Make one with `withContent`.
 */
export class ResultWithContent<T> {
  constructor(
    readonly result: T,
    readonly content: readonly ExtraContent[],
  ) {}
}

/**
 * Attaches content blocks to a result: `return withContent(result, image(png, 'image/png'))`.
 * `tsc` still checks `result` against the tool's declared `returns`.
 */
export function withContent<T>(result: T, ...content: ExtraContent[]): ResultWithContent<T> {
  return new ResultWithContent(result, content);
}

/** Binary data as the protocol carries it: base64. A string is taken to be base64 already. */
export type BinaryData = Uint8Array | string;

export function base64Of(data: BinaryData): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** An image block: `image(bytes, 'image/png')`. */
export function image(data: BinaryData, mimeType: string): ImageContent {
  return { type: 'image', data: base64Of(data), mimeType };
}

/** An audio block: `audio(bytes, 'audio/wav')`. */
export function audio(data: BinaryData, mimeType: string): AudioContent {
  return { type: 'audio', data: base64Of(data), mimeType };
}

/** A resource embedded in the result, with its text or its bytes. */
export function embeddedResource(resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: BinaryData })): EmbeddedResource {
  const { uri, mimeType } = resource;
  const body = 'text' in resource ? { text: resource.text } : { blob: base64Of(resource.blob) };
  return { type: 'resource', resource: { uri, ...(mimeType !== undefined && { mimeType }), ...body } };
}

/** A link to a resource the client may read (or not) with `resources/read`. */
export function resourceLink(link: { uri: string; name: string; mimeType?: string; description?: string; title?: string }): ResourceLink {
  return { type: 'resource_link', ...link };
}
