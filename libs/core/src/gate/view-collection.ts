import { isDeepStrictEqual } from 'node:util';
import { ConflictingViewError } from '../errors/conflicting-view.error';
import type { ContractViolation } from '../errors/contract-violation';
import type { CompiledTool, CompiledView, ViewContent } from '../compiled/tool-catalog';

/**
 * The server's views by URI, each with the tools that link it. Two `defineView` constants may
 * share a URI only when they serve the same thing (same HTML, same `_meta.ui`): a host caches and
 * reviews a view by its URI.
 */
export function collectViews(tools: Iterable<CompiledTool>, report: (violation: ContractViolation) => void): Map<string, CompiledView> {
  const views = new Map<string, CompiledView>();
  const where = (tool: CompiledTool) => `the tool '${tool.name}' (${tool.toolset.cls.name}.${tool.methodName}(), toolset '${tool.toolset.name}')`;
  for (const tool of tools) {
    if (!tool.view) continue;
    const { content } = tool.view;
    const existing = views.get(content.uri);
    if (!existing) {
      views.set(content.uri, { ...content, tools: [tool] });
      continue;
    }
    const difference = existing.definition === content.definition ? undefined : differenceOf(existing, content);
    if (difference) report(new ConflictingViewError(content.uri, where(existing.tools[0]), where(tool), difference));
    else existing.tools.push(tool);
  }
  return views;
}

function differenceOf(a: ViewContent, b: ViewContent): string | undefined {
  if (a.contents.text !== b.contents.text) return 'different HTML';
  if (!isDeepStrictEqual(a.contents._meta, b.contents._meta)) return 'different CSP, permissions, domain or border';
  if (!isDeepStrictEqual(a.descriptor, b.descriptor)) return 'a different name, title or description';
  return undefined;
}
