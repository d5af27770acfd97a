import { specTypeSchemas } from '@modelcontextprotocol/server';

type Issue = { path?: readonly (PropertyKey | { key: PropertyKey })[]; message: string };

/**
 * One readable line for a 2025-era `initialize` whose params break the SDK's own schema, or
 * undefined. The SDK would answer with the schema library's issue list dumped as JSON.
 */
export function invalidInitializeParams(message: unknown): string | undefined {
  if ((message as { method?: unknown } | null)?.method !== 'initialize') return undefined;
  const outcome = specTypeSchemas.InitializeRequest['~standard'].validate(message) as { issues?: readonly Issue[] } | Promise<unknown>;
  if (outcome instanceof Promise || !outcome.issues?.length) return undefined;
  const problems = outcome.issues.slice(0, 5).map((issue) => {
    const path = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.');
    return `${path || 'the request'}: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
  return `Invalid params for initialize: ${problems.join('; ')}${outcome.issues.length > 5 ? `; and ${outcome.issues.length - 5} more` : ''}.`;
}
