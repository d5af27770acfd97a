/**
 * The rules of an argument's curation, one table for both places an argument is curated: an
 * app's `curate()` (checked by the startup gate) and an OpenAPI library's `openapi.config.json`
 * (checked by the generator). Each side reads its own schema's representation into
 * `CuratedArgumentFacts` and checks values against its schema itself; everything else about an
 * entry (which settings apply to which kind, what a bound or a name may be, what only narrows) is
 * decided here, so an entry one accepts the other accepts too. Imports nothing: the workspace
 * plugin loads it on its own (`@toolsets/core/curation-rules`).
 */

/** What the rules read of the argument an entry curates, whatever its schema's form. */
export interface CuratedArgumentFacts {
  /** Its JSON types (`string`, `number`, `integer`, `boolean`, …); an enum of strings is `string`. */
  readonly types: readonly string[];
  /** Whether it takes only listed values (an enum): a pattern or bounds do not apply, an `enum` narrows it. */
  readonly enumerated: boolean;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Whose bounds these are, for messages: "the document's", "the toolset's". */
  readonly owner: string;
}

/** One argument's curation entry, as either side reads it (unchecked: it comes from JSON or JavaScript). */
export interface ArgumentCurationEntry {
  readonly omit?: unknown;
  readonly value?: unknown;
  readonly default?: unknown;
  readonly name?: unknown;
  readonly description?: unknown;
  readonly enum?: unknown;
  readonly pattern?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly minLength?: unknown;
  readonly maxLength?: unknown;
  readonly examples?: unknown;
}

/** What an entry breaks: the setting (absent for the entry as a whole), what is wrong, and how to fix it. */
export interface CurationRuleProblem {
  readonly setting?: string;
  readonly problem: string;
  readonly fix: string;
}

/**
 * A name an argument may be renamed to: letters, digits and `_`, starting with a letter or `_`, at
 * most 64 characters. A valid property name in TypeScript and JSON, and in every model API's tool
 * schema rules.
 */
export const CURATED_ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

type Bound = 'minimum' | 'maximum' | 'minLength' | 'maxLength';

/** Each bound: the side it narrows from, the kinds it applies to, and whether it counts characters. */
const BOUNDS: readonly { key: Bound; low: boolean; kinds: readonly string[]; length: boolean }[] = [
  { key: 'minimum', low: true, kinds: ['integer', 'number'], length: false },
  { key: 'maximum', low: false, kinds: ['integer', 'number'], length: false },
  { key: 'minLength', low: true, kinds: ['string'], length: true },
  { key: 'maxLength', low: false, kinds: ['string'], length: true },
];

/**
 * What is wrong with `entry` for an argument described by `facts`, apart from whether its values
 * (`value`, `default`, `enum`, `examples`) fit the argument's schema: each side checks those
 * against its own schema. An entry with `value` hides the argument: nothing else of it is read.
 * `omit: true` hides an optional argument and sends nothing for it: it stands alone.
 */
export function argumentEntryProblems(entry: unknown, facts: CuratedArgumentFacts): CurationRuleProblem[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return [{ problem: 'must be an object ({ "value": …, "default": …, "name": …, "description": …, "enum": […], … })', fix: 'write the entry as an object of settings.' }];
  }
  const curated = entry as ArgumentCurationEntry;
  if (curated.omit !== undefined) return omitProblems(curated);
  if (curated.value !== undefined) return [];
  // A list of values, the argument's own or the entry's: only the list narrows it.
  const seen: ArgumentFacts = facts.enumerated || curated.enum !== undefined ? { ...facts, types: [], listed: true } : facts;
  const problems: CurationRuleProblem[] = [];
  for (const [setting, rule] of RULES) {
    const problem = curated[setting] === undefined ? undefined : rule(curated[setting], seen);
    if (problem) problems.push({ setting, ...problem });
  }
  return [...problems, ...emptyRanges(curated, facts, problems)];
}

/** `omit` is `true`, alone: it sends nothing, so a value, a default or anything a model would read of the argument contradicts it. */
function omitProblems(curated: ArgumentCurationEntry): CurationRuleProblem[] {
  if (curated.omit !== true) return [{ setting: 'omit', problem: `is ${JSON.stringify(curated.omit)}, not true`, fix: 'write "omit": true to hide the argument, or leave it out.' }];
  const others = Object.keys(curated).filter((key) => key !== 'omit' && curated[key as keyof ArgumentCurationEntry] !== undefined);
  if (others.length === 0) return [];
  return [{ setting: 'omit', problem: `hides the argument and sends nothing for it, but the entry also sets ${others.join(', ')}`, fix: 'keep "omit": true alone, or give "value" instead to hide the argument behind a value.' }];
}

/** Whether an entry hides an argument the caller must give: `omit` cannot stand in for a required one. */
export function omitsRequired(entry: unknown, required: boolean): CurationRuleProblem | undefined {
  if (!required || typeof entry !== 'object' || entry === null || (entry as ArgumentCurationEntry).omit !== true) return undefined;
  return { setting: 'omit', problem: 'hides an argument the tool requires, so the call could not be made', fix: 'give "value" instead: it hides the argument and always sends that value.' };
}

/** Bounds that passed on their own, against each other and the argument's own: a low above a high allows nothing. */
function emptyRanges(curated: ArgumentCurationEntry, facts: CuratedArgumentFacts, problems: readonly CurationRuleProblem[]): CurationRuleProblem[] {
  const kept = (key: Bound) => (curated[key] !== undefined && !problems.some((problem) => problem.setting === key) ? (curated[key] as number) : undefined);
  const found: CurationRuleProblem[] = [];
  for (const [low, high] of [
    ['minimum', 'maximum'],
    ['minLength', 'maxLength'],
  ] as const) {
    if (kept(low) === undefined && kept(high) === undefined) continue;
    const [lowest, highest] = [kept(low) ?? facts[low], kept(high) ?? facts[high]];
    if (lowest !== undefined && highest !== undefined && lowest > highest) found.push({ problem: `${low} ${lowest} is above ${high} ${highest}, so no value would be allowed`, fix: `give a ${low} no greater than the ${high}.` });
  }
  return found;
}

/** The facts as the rules see them: `listed` when the argument or the entry lists its values. */
type ArgumentFacts = CuratedArgumentFacts & { listed?: boolean };
type Rule = (value: unknown, facts: ArgumentFacts) => Omit<CurationRuleProblem, 'setting'> | undefined;

/** The table: each setting an entry may have (apart from `value` and `default`) and what it must be. */
const RULES: readonly [keyof ArgumentCurationEntry, Rule][] = [
  ['name', (name) => (typeof name === 'string' && CURATED_ARGUMENT_NAME.test(name) ? undefined : { problem: `${JSON.stringify(name)} is not an argument name`, fix: 'use letters, digits and _, starting with a letter or _ (at most 64 characters).' })],
  ['description', (text) => (typeof text === 'string' && text.trim() !== '' ? undefined : { problem: 'is empty', fix: 'give text a model can read, or leave it out.' })],
  ['enum', listProblem],
  ['examples', listProblem],
  ['pattern', patternProblem],
  ...BOUNDS.map((bound): [Bound, Rule] => [bound.key, (value, facts) => boundProblem(bound, value, facts)]),
];

function listProblem(values: unknown): Omit<CurationRuleProblem, 'setting'> | undefined {
  return Array.isArray(values) && values.length > 0 ? undefined : { problem: 'must be a list of one or more values', fix: 'list the values, or leave it out.' };
}

/**
 * What is wrong with the renames of one tool's entries: two arguments renamed to one name, or one
 * renamed onto an argument that keeps its own name. `argumentNames`: the tool's arguments before curation.
 */
export function renameProblems(entries: Readonly<Record<string, unknown>>, argumentNames: readonly string[]): { argument: string; problem: CurationRuleProblem }[] {
  const renamed = Object.entries(entries).filter((pair): pair is [string, { name: string }] => {
    const entry = pair[1] as ArgumentCurationEntry | null;
    return typeof entry === 'object' && entry !== null && typeof entry.name === 'string' && entry.value === undefined && entry.name !== pair[0];
  });
  const renamedFrom = new Set(renamed.map(([argument]) => argument));
  const problems: { argument: string; problem: CurationRuleProblem }[] = [];
  for (const [argument, { name }] of renamed) {
    if (argumentNames.includes(name) && !renamedFrom.has(name)) {
      problems.push({ argument, problem: { setting: 'name', problem: `${JSON.stringify(name)} is the name of another argument, '${name}'`, fix: 'give each argument its own name.' } });
      continue;
    }
    const twin = renamed.find(([other, entry]) => other !== argument && entry.name === name);
    if (twin) problems.push({ argument, problem: { setting: 'name', problem: `${JSON.stringify(name)} is also the new name of '${twin[0]}'`, fix: 'give each argument its own name.' } });
  }
  return problems;
}

function patternProblem(pattern: unknown, facts: ArgumentFacts): Omit<CurationRuleProblem, 'setting'> | undefined {
  if (!facts.types.includes('string')) return { problem: `applies to a string argument, and this one is ${kindText(facts)}`, fix: facts.listed ? 'narrow the list with "enum" instead.' : 'narrow it with "enum" or bounds instead.' };
  if (facts.pattern !== undefined) return { problem: `${facts.owner} pattern ${facts.pattern} is already required, and a curated one would replace it`, fix: 'narrow it with "enum" or "maxLength" instead.' };
  if (typeof pattern !== 'string' || !compiles(pattern)) return { problem: `${JSON.stringify(pattern)} is not a regular expression (as JavaScript compiles it with the u flag)`, fix: 'give a valid regular expression.' };
  return undefined;
}

function boundProblem(bound: (typeof BOUNDS)[number], value: unknown, facts: ArgumentFacts): Omit<CurationRuleProblem, 'setting'> | undefined {
  if (!bound.kinds.some((kind) => facts.types.includes(kind))) {
    return { problem: `applies to a ${bound.length ? 'string' : 'number'} argument, and this one is ${kindText(facts)}`, fix: facts.listed ? 'narrow the list with "enum" instead.' : 'leave it out.' };
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || (bound.length && (!Number.isInteger(value) || value < 0))) {
    return { problem: `${JSON.stringify(value)} is not ${bound.length ? 'a whole number of characters (0 or more)' : 'a number'}`, fix: `give ${bound.length ? 'a whole number' : 'a number'}.` };
  }
  const own = facts[bound.key];
  if (own !== undefined && (bound.low ? value < own : value > own)) return { problem: `${value} widens ${facts.owner} ${bound.key} ${own}`, fix: 'a curation can only narrow an argument.' };
  return undefined;
}

function kindText(facts: ArgumentFacts): string {
  if (facts.listed) return 'a list of values';
  const kind = facts.types.find((type) => type !== 'null');
  if (kind === undefined) return 'an open value';
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
