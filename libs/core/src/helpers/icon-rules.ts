import type { ToolIcon } from '../metadata/tool-metadata';

/** The sizes clients read: `WxH` (`48x48`), or `any` for a scalable image. */
const SIZE = /^(\d+x\d+|any)$/;
const IMAGE_TYPE = /^image\/[\w.+-]+$/;

/**
 * Why a client should not fetch an icon's `src`, if so: it may fetch an https URL or read a base64
 * `data:image` URI, and nothing else. The startup gate refuses a tool with any other (`@Tool({ icons })`).
 */
export function iconSrcProblem(src: unknown): string | undefined {
  if (typeof src !== 'string' || !URL.canParse(src)) return `whose src ${JSON.stringify(src) ?? 'is missing'} is not a URL`;
  const protocol = new URL(src).protocol;
  return protocol === 'https:' || (protocol === 'data:' && /^data:image\/[\w.+-]+;base64,/.test(src)) ? undefined : `whose src is a ${protocol} URL`;
}

/** What a client could not read in an icon's `mimeType`, `sizes` or `theme`, if anything. */
export function iconDetailProblem(mimeType: unknown, sizes: unknown, theme: unknown): string | undefined {
  if (mimeType !== undefined && !isImageType(mimeType)) return `whose mimeType ${JSON.stringify(mimeType)} is not an image type`;
  if (sizes !== undefined && (!Array.isArray(sizes) || !sizes.every(isSize))) return `whose sizes ${JSON.stringify(sizes)} are not WxH or any`;
  if (theme !== undefined && !isTheme(theme)) return `whose theme ${JSON.stringify(theme)} is not light or dark`;
  return undefined;
}

/**
 * What a client can use of an icon: its `src`, with each detail that is well formed (the others
 * left out); undefined when no client should fetch its `src`. How a generator keeps another
 * server's icons the gate accepts, and how the gate copies an icon it accepted.
 */
export function showableIcon(icon: { src?: unknown; mimeType?: unknown; sizes?: unknown; theme?: unknown }): ToolIcon | undefined {
  if (iconSrcProblem(icon.src) !== undefined) return undefined;
  const sizes = Array.isArray(icon.sizes) ? icon.sizes.filter(isSize) : [];
  return {
    src: icon.src as string,
    ...(isImageType(icon.mimeType) && { mimeType: icon.mimeType }),
    ...(sizes.length > 0 && { sizes }),
    ...(isTheme(icon.theme) && { theme: icon.theme }),
  };
}

const isImageType = (value: unknown): value is string => typeof value === 'string' && IMAGE_TYPE.test(value);
const isSize = (value: unknown): value is string => typeof value === 'string' && SIZE.test(value);
const isTheme = (value: unknown): value is 'light' | 'dark' => value === 'light' || value === 'dark';
