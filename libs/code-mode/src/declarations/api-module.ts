import { catalogDeclarations, type DeclaredTool } from './catalog-declarations';

/**
 * The declarations of `tools` as a module (`api.d.ts`): the same namespaces, interfaces and
 * functions a program in code mode is checked against, exported, with `Api` (the type of the whole
 * `api`) for `typedApi<Api>(client)`, so TypeScript outside the sandbox calls the server typed.
 */
export function apiModule(tools: readonly DeclaredTool[], origin: string): string {
  const { text } = catalogDeclarations(tools);
  const exported = text.replace(/^declare class ToolCallError/m, 'export declare class ToolCallError').replace(/^declare namespace api \{/m, 'export declare namespace api {');
  return `// The tools of ${origin}, as TypeScript: written by toolsets-api-types from the schemas the server advertises. Do not edit.\n${exported}\n/** Every tool, by toolset: \`const api = await typedApi<Api>(client)\`, then \`await api.<toolset>.<tool>(args)\`. */\nexport type Api = typeof api;\n`;
}
