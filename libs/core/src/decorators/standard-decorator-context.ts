/** The context object TC39 standard decorators receive as their second argument. */
export interface StandardDecoratorContext {
  kind: 'class' | 'method' | 'getter' | 'setter' | 'field' | 'accessor';
  name: string | symbol | undefined;
}

/**
 * Whether a decorator was called the TC39 way (`(value, context)`), as esbuild-based tools (tsx,
 * Vite) and TypeScript without `experimentalDecorators` compile them. Those carry no
 * `design:type`, so the decorators record the use and the gate reports it once, with the fix.
 */
export function isStandardDecoratorContext(value: unknown): value is StandardDecoratorContext {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
