import type { CompiledResource, CompiledResourceTemplate, ToolCatalog } from '../../compiled/tool-catalog';

/** What a resource URI names: a fixed resource, or a template with the variables it matched. */
export type ResourceMatch =
  | { kind: 'resource'; member: CompiledResource }
  | { kind: 'template'; member: CompiledResourceTemplate; variables: Record<string, string> };

/** The fixed resource with this URI, else the first template that matches it (list variables joined by commas). */
export function matchResource(catalog: ToolCatalog, uri: string): ResourceMatch | undefined {
  const resource = catalog.resources.get(uri);
  if (resource) return { kind: 'resource', member: resource };
  for (const template of catalog.templates) {
    const variables = template.matcher.match(uri);
    if (!variables) continue;
    return { kind: 'template', member: template, variables: Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value])) };
  }
  return undefined;
}
