import { closest } from './closest-name';

/** The keys each level of `openapi.config.json` takes (a library's config, a tool's entry, an argument's). */
const LIBRARY_KEYS = ['name', 'source', 'sourceHeaders', '$schema', 'prefix', 'includeTags', 'excludeTags', 'include', 'exclude', 'credentialHeader', 'schemaBudget', 'groupBy', 'headers', 'tools', 'lenient', 'exports', 'overlay', 'arguments', 'tags', 'fields'];
const TAG_KEYS = ['arguments', 'fields'];
const TOOL_KEYS = ['name', 'title', 'description', 'keywords', 'exclude', 'headers', 'annotations', 'scopes', 'group', 'fields', 'lenient', 'arguments'];
const ARGUMENT_KEYS = ['omit', 'value', 'default', 'name', 'description', 'enum', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'examples'];
const ANNOTATION_KEYS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/**
 * Stops at a key no level of the config takes (`"feilds"`, `"readOnly"`), naming the key it
 * probably meant: a misspelt curation would otherwise be ignored without a word, and the tool
 * served uncurated.
 */
export function checkConfigKeys(config: object): void {
  const problems: string[] = [];
  unknownKeys(config, LIBRARY_KEYS, 'openapi.config.json', problems);
  const tools = (config as { tools?: unknown }).tools;
  for (const [tool, entry] of Object.entries(isObject(tools) ? tools : {})) {
    const where = `openapi.config.json "tools"."${tool}"`;
    if (!isObject(entry)) {
      problems.push(`${where}: must be an object ({ "name": …, "description": …, "arguments": { … }, … }).`);
      continue;
    }
    unknownKeys(entry, TOOL_KEYS, where, problems);
    if (isObject(entry['annotations'])) unknownKeys(entry['annotations'], ANNOTATION_KEYS, `${where}."annotations"`, problems);
    argumentKeys(entry['arguments'], `${where}."arguments"`, problems);
  }
  argumentKeys((config as { arguments?: unknown }).arguments, 'openapi.config.json "arguments"', problems);
  const tags = (config as { tags?: unknown }).tags;
  for (const [tag, entry] of Object.entries(isObject(tags) ? tags : {})) {
    if (!isObject(entry)) {
      problems.push(`openapi.config.json "tags"."${tag}": must be an object ({ "arguments": { … } }).`);
      continue;
    }
    unknownKeys(entry, TAG_KEYS, `openapi.config.json "tags"."${tag}"`, problems);
    argumentKeys(entry['arguments'], `openapi.config.json "tags"."${tag}"."arguments"`, problems);
  }
  if (problems.length > 0) throw new Error(`openapi.config.json has keys the generator does not read:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
}

/** The settings of each argument entry under `where`. */
function argumentKeys(args: unknown, where: string, problems: string[]): void {
  for (const [name, argument] of Object.entries(isObject(args) ? args : {})) if (isObject(argument)) unknownKeys(argument, ARGUMENT_KEYS, `${where}."${name}"`, problems);
}

function unknownKeys(value: object, known: readonly string[], where: string, problems: string[]): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    problems.push(`${where}."${key}" is not a setting${near ? `: did you mean "${near}"?` : `. Settings here: ${known.join(', ')}.`}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
