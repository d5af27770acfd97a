import { openapiOverlay } from 'openapi-format';
import { parse as parseYaml } from 'yaml';

/**
 * A library's OpenAPI Overlay (1.0 or 1.1, `"overlay": "openapi.overlay.yaml"` in its config),
 * applied to the document before generation by `openapi-format`, a maintained implementation of
 * the specification's JSONPath targets and update/remove actions, rather than one written here.
 * An action that changes nothing (its target matches no node: the operation or parameter was
 * renamed or removed upstream) stops the generator with the action and the fix, as a stale
 * curation entry does: an overlay must not be dropped silently on refresh.
 */
export async function applyOverlay(document: unknown, overlayText: string, file: string): Promise<unknown> {
  const overlay = parseOverlay(overlayText, file);
  const said: string[] = [];
  const error = console.error;
  // openapi-format reports a refused action on the console and goes on: kept for the message instead.
  console.error = (...args: unknown[]) => void said.push(args.map(String).join(' '));
  let applied: Awaited<ReturnType<typeof openapiOverlay>>;
  try {
    applied = await openapiOverlay(structuredClone(document) as Record<string, unknown>, { overlaySet: overlay });
  } finally {
    console.error = error;
  }
  const unused = (applied.resultData['unusedActions'] ?? []) as { target?: string; description?: string }[];
  if (said.length > 0 || unused.length > 0) {
    const lines = [
      ...said,
      ...unused.map((action) => `the action${action.description ? ` "${action.description}"` : ''} targets ${JSON.stringify(action.target)}, which matches nothing in the document (renamed or removed upstream?)`),
    ];
    throw new Error(`${file} does not apply to the document:\n${lines.map((line) => `- ${line}`).join('\n')}\nPoint each action's target at what the document has now, or remove the action.`);
  }
  return applied.data;
}

function parseOverlay(text: string, file: string): { overlay?: string; actions: [] } {
  let overlay: unknown;
  try {
    overlay = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new Error(`${file} is not ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
  const shape = overlay as { overlay?: unknown; actions?: unknown };
  if (typeof shape !== 'object' || shape === null || typeof shape.overlay !== 'string' || !/^1\.[01]\.\d+$/.test(shape.overlay) || !Array.isArray(shape.actions)) {
    throw new Error(`${file} is not an OpenAPI Overlay: it needs "overlay": "1.0.0" (or 1.1.x) and a list of "actions" ({ "target": "$.paths…", "update": … } or "remove": true).`);
  }
  return shape as { overlay?: string; actions: [] };
}
