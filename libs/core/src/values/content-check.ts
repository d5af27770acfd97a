import type { ExtraContent } from '../results/tool-content';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;

/**
 * What is wrong with the content blocks a tool attached, one line each (`content[1]: an image needs
 * a mime type like image/png`); empty when they can be sent.
 */
export function contentProblems(blocks: readonly ExtraContent[]): string[] {
  const problems: string[] = [];
  blocks.forEach((block, index) => {
    const at = `content[${index}]`;
    const media = (kind: 'image' | 'audio', data: unknown, mimeType: unknown) => {
      if (typeof mimeType !== 'string' || !MIME.test(mimeType) || !mimeType.startsWith(`${kind}/`)) problems.push(`${at}: an ${kind} needs a mime type like ${kind}/${kind === 'image' ? 'png' : 'wav'} (got ${JSON.stringify(mimeType)})`);
      if (typeof data !== 'string' || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) problems.push(`${at}: an ${kind}'s data must be non-empty base64 (pass the bytes to ${kind}() and it encodes them)`);
    };
    switch (block?.type) {
      case 'image':
        return media('image', block.data, block.mimeType);
      case 'audio':
        return media('audio', block.data, block.mimeType);
      case 'resource': {
        const resource = block.resource as { uri?: unknown; text?: unknown; blob?: unknown } | undefined;
        if (typeof resource?.uri !== 'string' || !hasScheme(resource.uri)) problems.push(`${at}: an embedded resource needs a uri with a scheme, like file:///report.txt`);
        if (typeof resource?.text !== 'string' && typeof resource?.blob !== 'string') problems.push(`${at}: an embedded resource needs its text or its blob`);
        return;
      }
      case 'resource_link':
        if (typeof block.uri !== 'string' || !hasScheme(block.uri)) problems.push(`${at}: a resource link needs a uri with a scheme`);
        if (typeof block.name !== 'string' || block.name === '') problems.push(`${at}: a resource link needs a name`);
        return;
      default:
        problems.push(`${at}: ${JSON.stringify((block as { type?: unknown })?.type)} is not a content block a tool can attach (image, audio, resource, resource_link)`);
    }
  });
  return problems;
}

function hasScheme(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(uri);
}
