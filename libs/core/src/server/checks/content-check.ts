import type { ExtraContent } from '../../wire/tool-content';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;

/**
 * What is wrong with the content blocks a tool attached, one line each (`content[1]: an image needs
 * a mime type like image/png`); empty when they can be sent.
 */
export function contentProblems(blocks: readonly ExtraContent[]): string[] {
  return blocks.flatMap((block, index) => {
    const at = `content[${index}]`;
    const type = (block as { type?: unknown } | undefined)?.type;
    const check = typeof type === 'string' && Object.hasOwn(BLOCK_CHECKS, type) ? BLOCK_CHECKS[type] : undefined;
    return check ? check(block as unknown as Record<string, unknown>).map((problem) => `${at}: ${problem}`) : [`${at}: ${JSON.stringify(type)} is not a content block a tool can attach (image, audio, resource, resource_link)`];
  });
}

/** What is wrong with one block of each kind a tool may attach. */
const BLOCK_CHECKS: Record<string, (block: Record<string, unknown>) => string[]> = {
  image: (block) => mediaProblems('image', block['data'], block['mimeType']),
  audio: (block) => mediaProblems('audio', block['data'], block['mimeType']),
  resource: (block) => {
    const resource = block['resource'] as { uri?: unknown; text?: unknown; blob?: unknown } | undefined;
    return [
      ...(typeof resource?.uri !== 'string' || !hasScheme(resource.uri) ? ['an embedded resource needs a uri with a scheme, like file:///report.txt'] : []),
      ...(typeof resource?.text !== 'string' && typeof resource?.blob !== 'string' ? ['an embedded resource needs its text or its blob'] : []),
    ];
  },
  resource_link: (block) => [
    ...(typeof block['uri'] !== 'string' || !hasScheme(block['uri']) ? ['a resource link needs a uri with a scheme'] : []),
    ...(typeof block['name'] !== 'string' || block['name'] === '' ? ['a resource link needs a name'] : []),
  ],
};

function mediaProblems(kind: 'image' | 'audio', data: unknown, mimeType: unknown): string[] {
  const problems: string[] = [];
  if (typeof mimeType !== 'string' || !MIME.test(mimeType) || !mimeType.startsWith(`${kind}/`)) {
    problems.push(`an ${kind} needs a mime type like ${kind}/${kind === 'image' ? 'png' : 'wav'} (got ${JSON.stringify(mimeType)})`);
  }
  if (typeof data !== 'string' || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) {
    problems.push(`an ${kind}'s data must be non-empty base64 (pass the bytes to ${kind}() and it encodes them)`);
  }
  return problems;
}

function hasScheme(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(uri);
}
