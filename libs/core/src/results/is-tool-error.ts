import { ToolError } from './tool-error';

/**
 * True for a `ToolError` instance or a plain `{ error, detail }` literal (strings both, and no
 * `message`, which every `ToolResult` has). Narrows `XResult | ToolError` in both branches.
 */
export function isToolError(value: unknown): value is ToolError {
  if (value instanceof ToolError) return true;
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate['error'] === 'string' && typeof candidate['detail'] === 'string' && !('message' in candidate);
}
