type Json = Record<string, unknown>;

/** A tool's output schema, written as deep as asked (see emitClassWithin). */
export interface OutputLevels {
  /** The schema cut below `depth` (Infinity: whole), or undefined when it would take more than `maxNodes` nodes. */
  within(depth: number, maxNodes: number): { schema: unknown; cut: boolean } | undefined;
  /** The result class's name, for the open value that stands for an output cut to nothing. */
  title: string;
}

/** A tool's schemas as advertised within its budget. */
export interface FittedSchemas {
  input: unknown;
  output: unknown;
  /** Bytes of the whole tools/list entry. */
  bytes: number;
  /** Set when the entry is over the budget: its input schema alone does not fit, and inputs are never cut. */
  overBudget?: boolean;
}

/** What an open value that stands for a cut part says, after the cut class's name. */
export function cutNote(budget: number): string {
  return `cut to fit this tool's ${budget}-byte schema budget; the server validates it in full`;
}

/** The bytes each counted schema node takes at the least (`"a":{"enum":[1]}` is 15 for two). */
const LEAST_BYTES_PER_NODE = 7;
const DESCRIPTION_LENGTHS = [400, 200, 120, 80, 40];

/**
 * A tool's `tools/list` entry within `budget` bytes of JSON, the whole entry counted (`listed` is
 * its name, title, description and annotations). The budget is a hard cap on what is cut to meet it,
 * and an input schema is never cut: a model must be able to see every argument it can send, and the
 * advertised input must accept exactly what validation accepts. So the output schema gives way first,
 * its deepest levels becoming open values that say what was cut (down to an open object); then the
 * input's descriptions are shortened at a word. An input too large even so is advertised whole and
 * the entry marked over budget (the startup log and the generator's report name it). The server
 * validates results in full whatever is advertised.
 */
export function fitToolSchemas(listed: object, input: unknown, output: OutputLevels | undefined, budget: number): FittedSchemas {
  const note = cutNote(budget);
  const entryBytes = (inputSchema: unknown, outputSchema: unknown) => byteLength({ ...listed, inputSchema, ...(outputSchema !== undefined && { outputSchema }) });
  const least = output && { type: 'object', description: `(${output.title}, ${note})` };

  let advertisedInput = input;
  if (entryBytes(input, least) > budget) {
    const shortened = DESCRIPTION_LENGTHS.map((longest) => shortenDescriptions(input, longest)).find((schema) => entryBytes(schema, least) <= budget);
    if (shortened === undefined) return { input, output: least, bytes: entryBytes(input, least), overBudget: true };
    advertisedInput = shortened;
  }
  if (!output) return { input: advertisedInput, output: undefined, bytes: entryBytes(advertisedInput, undefined) };

  // The bytes left for the output schema: the entry with a one-byte stand-in, less that byte.
  const room = budget - (entryBytes(advertisedInput, 0) - 1);
  const fitted = fitOutput(output, room, least!);
  return { input: advertisedInput, output: fitted, bytes: entryBytes(advertisedInput, fitted) };
}

/**
 * The output schema in `room` bytes: whole if it fits; else the deepest cut that fits, found from
 * the top down so that no more than one level past the room is ever written; else the top level
 * with its descriptions shortened; else an open object.
 */
function fitOutput(output: OutputLevels, room: number, least: Json): unknown {
  const maxNodes = Math.floor(room / LEAST_BYTES_PER_NODE) + 1;
  const whole = output.within(Infinity, maxNodes);
  if (whole && byteLength(whole.schema) <= room) return whole.schema;
  let best: unknown;
  for (let depth = 0; ; depth++) {
    const level = output.within(depth, maxNodes);
    if (!level || byteLength(level.schema) > room) break;
    best = level.schema;
    if (!level.cut) break;
  }
  if (best !== undefined) return best;
  const top = output.within(0, maxNodes * 4);
  const shortened = top && DESCRIPTION_LENGTHS.map((longest) => shortenDescriptions(top.schema, longest)).find((schema) => byteLength(schema) <= room);
  return shortened ?? least;
}

/** Every description in a schema cut to at most `longest` characters, at a word, with an ellipsis. */
function shortenDescriptions(schema: unknown, longest: number): Json {
  const walk = (value: unknown, key?: string): unknown => {
    if (key === 'description' && typeof value === 'string' && value.length > longest) {
      const cut = value.slice(0, longest - 1);
      return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), longest / 2)).trimEnd()}…`;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (typeof value !== 'object' || value === null) return value;
    // Under `properties`, keys are names (a property called "description" is a schema, not text).
    const names = key === 'properties' || key === '$defs';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, names ? walk(v) : walk(v, k)]));
  };
  return walk(schema) as Json;
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
