import { closest } from './closest-name';
import type { ArgumentCuration } from './curate-argument';
import type { OpenApiConfig } from './openapi-config';
import { fieldTree, type FieldTree } from './project-result';

/** A `fields` list written once (for the library or a tag), read, and where the config has it. */
export interface PlacedFields {
  tree: FieldTree;
  where: string;
}

/** An argument entry and where the config has it, for messages. */
export interface PlacedArgumentEntry {
  entry: ArgumentCuration;
  where: string;
}

/**
 * The curation written once for many tools. Argument entries: the library's `arguments` and each
 * tag's (`tags.<tag>.arguments`), applied to every operation that has an argument of that name.
 * Answer fields: the library's `fields` and each tag's, applied to every operation whose answer has
 * all of them. A tag's entry is over the library's (an operation's first tag over its others), and
 * a tool's own entry over both. An entry that no included operation took is stale, like a tool's:
 * it stops the generator, naming it.
 */
export class SharedCuration {
  private readonly used = new Set<string>();
  private readonly seenArguments = new Set<string>();
  /** The `fields` lists, each read once (a malformed one stops the generator even if nothing would use it). */
  private readonly fieldLists: { tag?: string; placed: PlacedFields }[];

  constructor(private readonly config: OpenApiConfig) {
    const read = (fields: readonly string[], where: string): PlacedFields => ({ tree: fieldTree(where, fields), where });
    this.fieldLists = [
      ...Object.entries(config.tags ?? {}).flatMap(([tag, entry]) => (entry.fields === undefined ? [] : [{ tag, placed: read(entry.fields, `openapi.config.json "tags"."${tag}"."fields"`) }])),
      ...(config.fields === undefined ? [] : [{ placed: read(config.fields, 'openapi.config.json "fields"') }]),
    ];
  }

  /** The shared entries for an operation with these tags, by argument name (its own entries go over them). */
  for(tags: readonly string[]): Record<string, PlacedArgumentEntry> {
    const placed: Record<string, PlacedArgumentEntry> = {};
    const put = (entries: Record<string, ArgumentCuration> | undefined, where: (key: string) => string) => {
      for (const [key, entry] of Object.entries(entries ?? {})) placed[key] = { entry, where: where(key) };
    };
    put(this.config.arguments, (key) => `openapi.config.json "arguments"."${key}"`);
    for (const tag of [...tags].reverse()) put(this.config.tags?.[tag]?.arguments, (key) => `openapi.config.json "tags"."${tag}"."arguments"."${key}"`);
    return placed;
  }

  /** The shared `fields` lists for an operation with these tags, the one to try first first (its first tag's, then its other tags', then the library's). */
  fieldsFor(tags: readonly string[]): PlacedFields[] {
    const ofTag = (tag: string) => this.fieldLists.filter((list) => list.tag === tag).map((list) => list.placed);
    return [...tags.flatMap(ofTag), ...this.fieldLists.filter((list) => list.tag === undefined).map((list) => list.placed)];
  }

  /** A shared `fields` list an operation's answer was cut to. */
  tookFields(where: string): void {
    this.used.add(where);
  }

  /** An operation's argument names, and the shared entries it took. */
  took(argumentNames: readonly string[], entries: readonly PlacedArgumentEntry[]): void {
    for (const name of argumentNames) this.seenArguments.add(name);
    for (const { where } of entries) this.used.add(where);
  }

  /** Stops at a tag the document does not have, or a shared entry no included operation's argument took. */
  check(documentTags: readonly string[]): void {
    const problems: string[] = [];
    for (const tag of Object.keys(this.config.tags ?? {})) {
      if (documentTags.includes(tag)) continue;
      const near = closest(tag, documentTags);
      problems.push(`openapi.config.json "tags"."${tag}": no operation of the document has this tag.${near ? ` The closest is "${near}".` : ''} Rename the entry, or remove it.`);
    }
    const arguments_ = [...this.seenArguments].sort();
    const stale = (key: string, where: string) => {
      if (this.used.has(where)) return;
      const near = closest(key, arguments_);
      problems.push(`${where}: no included operation has an argument of this name (renamed or removed upstream?).${near ? ` The closest is "${near}".` : ''} Rename the entry, or remove it.`);
    };
    for (const key of Object.keys(this.config.arguments ?? {})) stale(key, `openapi.config.json "arguments"."${key}"`);
    for (const [tag, entry] of Object.entries(this.config.tags ?? {})) {
      if (!documentTags.includes(tag)) continue;
      for (const key of Object.keys(entry.arguments ?? {})) stale(key, `openapi.config.json "tags"."${tag}"."arguments"."${key}"`);
    }
    for (const { tag, placed } of this.fieldLists) {
      if ((tag === undefined || documentTags.includes(tag)) && !this.used.has(placed.where)) {
        problems.push(`${placed.where}: no included operation's answer has all of these fields. Name fields the answers share (nx run <lib>:openapi-paths prints them), or remove the list.`);
      }
    }
    if (problems.length > 0) throw new Error(`openapi.config.json has entries that curate nothing:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
  }
}
