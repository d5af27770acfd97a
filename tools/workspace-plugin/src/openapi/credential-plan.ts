import type { ApiModel, UpstreamAuth } from './api-model';
import type { OperationModel, ParameterModel } from './operation-model';

/* Which credentials a generated toolset reads and how it sends them upstream; what looks like a credential among an operation's parameters. */

/** Header names that look like a credential: an API key, a token, a secret. */
export const CREDENTIAL_LOOKALIKE = /(api[-_]?key|token|secret|auth)/i;

/**
 * A warning for each header parameter that looks like a credential in a document that declares no
 * security scheme, unless it is the credential header: as an argument, a model would see the key.
 */
export function credentialLookalikes(operations: readonly OperationModel[], api: ApiModel, credential: string | undefined): string[] {
  if (api.auth) return [];
  const names = new Set(operations.flatMap((op) => op.parameters.filter((p) => p.in === 'header' && CREDENTIAL_LOOKALIKE.test(p.name) && p.name.toLowerCase() !== credential).map((p) => p.name)));
  return [...names].map(
    (name) => `the header parameter ${name} looks like a credential, but the document declares no security scheme, so it is a tool argument a model would see and fill; regenerate with --credentialHeader=${name.toLowerCase()} to take it from the caller's headers instead`,
  );
}

/** Parameter names that carry a credential when the operation is secured (Slack's `token`), whatever the scheme says. */
export const CREDENTIAL_PARAMETER = /^(token|access[-_]?token|api[-_]?key|auth[-_]?token|authorization)$/i;

/** Whether a parameter carries the API credential: it is the client's to send, never an argument a model sees. */
export function isCredentialParameter(parameter: ParameterModel, op: OperationModel, credential: { header?: string; auth?: UpstreamAuth; schemeParameters?: ApiModel['schemeParameters'] }): boolean {
  const { auth } = credential;
  if (parameter.in === 'header' && parameter.name.toLowerCase() === credential.header) return true;
  // A parameter one of the document's apiKey schemes names is a credential on every operation, secured or not.
  if (credential.schemeParameters?.some((scheme) => scheme.in === parameter.in && (scheme.in === 'header' ? scheme.name.toLowerCase() === parameter.name.toLowerCase() : scheme.name === parameter.name))) return true;
  if (auth && (auth.kind === 'api-key-header' || auth.kind === 'api-key-query') && parameter.name === auth.name && parameter.in === (auth.kind === 'api-key-header' ? 'header' : 'query')) return true;
  return op.secured && (parameter.in === 'query' || parameter.in === 'header') && CREDENTIAL_PARAMETER.test(parameter.name);
}

/** One MCP-side credential header and how its value goes upstream. */
export interface CredentialPlan {
  header: string;
  sendAs: Record<string, string>;
  optional: boolean;
}

/**
 * The credentials a generated toolset takes: `--credentialHeader` for the document's first scheme,
 * and for each other scheme its requirements name, a header of its own, `x-<toolset>-<parameter>`
 * (Trello's `token` query key comes from `x-trello-token`): required when a requirement lists it
 * with the first, else sent when the caller gives it. None without `--credentialHeader`.
 */
export function credentialPlan(name: string, api: ApiModel, credential: string | undefined): CredentialPlan[] {
  if (!credential) return [];
  const plans: CredentialPlan[] = [{ header: credential, sendAs: sendAsOf(api.auth, credential), optional: false }];
  for (const more of api.moreAuth) {
    const part = ('name' in more.auth ? more.auth.name : more.scheme).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'credential';
    let header = `x-${name.toLowerCase()}-${part}`;
    for (let n = 2; plans.some((plan) => plan.header === header); n++) header = `x-${name.toLowerCase()}-${part}-${n}`;
    plans.push({ header, sendAs: sendAsOf(more.auth, header), optional: !more.required });
  }
  return plans;
}

/**
 * The credentials the document offers as alternatives that `op` needs all the same: it lists
 * their parameters as required (a boards API lists `key` and `token` on every operation). Sent
 * when given either way; these are refused before the request when missing, naming the header.
 */
export function requiredAlternatives(op: OperationModel, credentials: readonly CredentialPlan[]): string[] {
  return credentials
    .filter((plan) => plan.optional && op.parameters.some((parameter) => parameter.required && sameParameter(parameter, plan.sendAs)))
    .map((plan) => plan.header);
}

export function sameParameter(parameter: ParameterModel, sendAs: Record<string, string>): boolean {
  if (sendAs['in'] === 'query') return parameter.in === 'query' && parameter.name === sendAs['name'];
  return sendAs['in'] === 'header' && parameter.in === 'header' && parameter.name.toLowerCase() === String(sendAs['name']).toLowerCase();
}

/** The config's `headers`, checked: a name and a value HTTP allows, each a string; a credential is never one of them. */
export function fixedHeaders(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`openapi.config.json "headers": ${JSON.stringify(name)} is not an HTTP header name.`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new Error(`openapi.config.json "headers": the value of ${name} must be a string on one line.`);
    if (/^(authorization|cookie|proxy-authorization)$/i.test(name)) throw new Error(`openapi.config.json "headers": ${name} would put a secret in the repository; the credential comes from --credentialHeader.`);
  }
  return headers;
}

export function sendAsOf(auth: UpstreamAuth | undefined, credential: string): Record<string, string> {
  switch (auth?.kind) {
    case 'api-key-header':
      return { in: 'header', name: auth.name };
    case 'api-key-query':
      return { in: 'query', name: auth.name };
    case 'bearer':
    case 'basic':
      return { in: auth.kind };
    default:
      return { in: 'header', name: credential };
  }
}
