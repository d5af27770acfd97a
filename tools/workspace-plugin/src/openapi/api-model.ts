import type { OpenApiDocument } from './load-document';

/** How the document says a credential goes upstream: an apiKey in a header (under its name), or http bearer. */
export type UpstreamAuth = { kind: 'api-key-header'; name: string } | { kind: 'bearer' };

/** What a generated toolset takes from the document as a whole, neutral of OpenAPI and of TypeScript. */
export interface ApiModel {
  /** The toolset's description: the title, and the first line of the description when there is one. */
  description: string;
  /** The first server's URL, the default base URL. */
  baseUrl: string;
  auth?: UpstreamAuth;
}

export function apiModelOf(api: OpenApiDocument): ApiModel {
  const title = api.info.title?.trim() || 'An HTTP API';
  const summary = api.info.description?.trim().split('\n')[0];
  const auth = upstreamAuthOf(api);
  return {
    description: summary ? `${title}: ${summary}`.slice(0, 500) : title,
    baseUrl: api.servers?.[0]?.url ?? 'http://localhost',
    ...(auth && { auth }),
  };
}

/** The one place that reads `components.securitySchemes`: an apiKey header wins over http bearer. */
export function upstreamAuthOf(document: unknown): UpstreamAuth | undefined {
  const schemes = Object.values((document as { components?: { securitySchemes?: Record<string, unknown> } } | null)?.components?.securitySchemes ?? {}) as {
    type?: string;
    in?: string;
    name?: string;
    scheme?: string;
  }[];
  const apiKey = schemes.find((scheme) => scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name);
  if (apiKey) return { kind: 'api-key-header', name: apiKey.name! };
  if (schemes.some((scheme) => scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')) return { kind: 'bearer' };
  return undefined;
}
