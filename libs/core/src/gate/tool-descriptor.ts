import type { Tool } from '@modelcontextprotocol/server';
import type { CompiledToolView, OutputArm } from '../compiled/tool-catalog';
import { toWire } from '../helpers/json-schema';
import type { CompiledTaskOptions } from '../metadata/tool-task';
import { cutNote, fitToolSchemas, type OutputLevels } from '../schema/schema-budget';
import { classLevels } from '../schema/schema-emitter';
import type { ClassModel } from '../schema/type-model';

// What a tool advertises in `tools/list`: its output schema (one arm, or the result and its
// ToolError as `anyOf`), both schemas within the toolset's budget, and the entry itself.

/** A tool's output schema: its result arm alone, or both arms as `anyOf` under the result's title. */
export function outputSchemaOf(okModel: ClassModel, ok: unknown, error: unknown): unknown {
  if (error === undefined) return ok;
  // Each arm's `$defs` move up to the root, where the arms' local `$ref`s (`#/$defs/...`) now point.
  const { $defs: okDefs, ...okArm } = ok as { $defs?: Record<string, unknown> };
  const { $defs: errorDefs, ...errorArm } = error as { $defs?: Record<string, unknown> };
  const defs = { ...errorDefs, ...okDefs };
  return {
    type: 'object',
    title: okModel.name,
    ...(okModel.description !== undefined && { description: okModel.description }),
    anyOf: [okArm, errorArm],
    ...(Object.keys(defs).length > 0 && { $defs: defs }),
  };
}

/**
 * Only what is advertised is cut to the toolset's budget (see fitToolSchemas): arguments and
 * results are validated against the full schemas. Under a budget the output is written only as
 * deep as it is advertised, so a catalog of huge answers (a payments API's) starts quickly.
 */
export function advertisedSchemas(
  listed: object,
  input: unknown,
  okModel: ClassModel,
  ok: OutputArm,
  error: OutputArm | undefined,
  budget: number | undefined,
): { input: unknown; output: unknown; overSchemaBudget?: { bytes: number; budget: number } } {
  if (budget === undefined) return { input, output: outputSchemaOf(okModel, ok.schema(), error?.schema()) };
  const note = cutNote(budget);
  const okLevels = classLevels(okModel, 'output', note);
  const errorLevels = error && classLevels(error.model, 'output', note);
  const levels: OutputLevels = {
    title: okModel.name,
    within: (depth, maxNodes) => {
      const okLevel = okLevels(depth, maxNodes);
      const errorLevel = errorLevels?.(depth, maxNodes);
      if (!okLevel || (error && !errorLevel)) return undefined;
      return { schema: outputSchemaOf(okModel, okLevel.schema, errorLevel?.schema), cut: okLevel.cut || (errorLevel?.cut ?? false) };
    },
  };
  const fitted = fitToolSchemas(listed, input, levels, budget);
  return { input: fitted.input, output: fitted.output, ...(fitted.overBudget && { overSchemaBudget: { bytes: fitted.bytes, budget } }) };
}

/** The `tools/list` entry, JSON-clean. */
export function descriptorOf(listed: { _meta: Record<string, unknown> }, advertised: { input: unknown; output: unknown }, task: CompiledTaskOptions | undefined, view: CompiledToolView | undefined): Tool {
  return toWire<Tool>({
    ...listed,
    inputSchema: advertised.input,
    outputSchema: advertised.output,
    ...(task && { execution: { taskSupport: task.support } }),
    _meta: { ...(view && viewMeta(view)), ...listed._meta },
  });
}

/**
 * A tool's `_meta` for its view: `ui.resourceUri` (and `visibility` when declared), plus the flat
 * `ui/resourceUri` key hosts built before the nested form still read (`registerAppTool` sends both).
 */
function viewMeta(view: CompiledToolView): Record<string, unknown> {
  return { ui: { resourceUri: view.content.uri, ...(view.visibility && { visibility: [...view.visibility] }) }, 'ui/resourceUri': view.content.uri };
}
