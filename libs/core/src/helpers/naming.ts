/** `HelloToolset` → `hello`, `CredentialDemoToolset` → `credential-demo`. */
export function toolsetNameOf(className: string): string {
  const base = className.replace(/Toolset$/, '') || className;
  return base
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** `searchUsers` → `search_users`. */
export function toolNameOf(methodName: string): string {
  return methodName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** MCP clients accept 1–128 characters of `A-Z a-z 0-9 _ - .` in a tool name. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Compares an argument name with a header name regardless of case and separators. */
export function sameIdentifier(a: string, b: string): boolean {
  const normalize = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  return normalize(a) === normalize(b);
}
