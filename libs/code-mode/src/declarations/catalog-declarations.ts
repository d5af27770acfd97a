import { hasTopLevelOperator, jsDoc, schemaType, shapeKey, type JsonSchema, type TypeNaming } from './schema-type';

/** A tool as `tools/list` advertises it, and the namespace (its toolset) it is called under. */
export interface DeclaredTool {
  namespace: string;
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

/** The declarations of a catalog, and how the names a program calls map back to tools. */
export interface CatalogDeclarations {
  /** `declare namespace api { namespace <toolset> { interfaces…; function <tool>(args): Promise<Result> } }`, and `ToolCallError`. */
  text: string;
  /** The sandbox's `api`: namespace identifiers and their function identifiers. */
  namespaces: Record<string, string[]>;
  /** `api.<namespace>.<function>` to the tool it calls. */
  tools: Map<string, DeclaredTool>;
  /** Each namespace's declarations one by one, for answers that write only some of them (`declarationOutline`). */
  parts: Map<string, NamespaceDeclarations>;
}

/** One namespace's declarations, each with the named types it mentions. */
export interface NamespaceDeclarations {
  /** Named types in the order `text` declares them: their JSDoc and declaration, and the named types they mention. */
  types: Map<string, { text: string; refs: readonly string[] }>;
  /** Functions by identifier: their JSDoc and declaration, and their argument and result types (`unknown` for a tool with no output schema). */
  functions: Map<string, { text: string; args: string; result: string }>;
}

const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await'.split(' '),
);

/** A name as an identifier: other characters become `_`, a reserved word gets a trailing `_`. */
export function identifier(name: string): string {
  const plain = name.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(?=\d)/, '_') || '_';
  return RESERVED.has(plain) ? `${plain}_` : plain;
}

const pascal = (name: string) => identifier(name).replace(/(^|_)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase()).replace(/_/g, '');

/**
 * Said once at the top, in place of the same JSDoc at every tool: what a call throws, the `message`
 * every result has, and the `{ error, detail }` a tool returns when it fails.
 */
export const TOOL_CALL_ERROR = `/** Thrown by a call the server refuses (arguments, scopes, limits) or that fails: its name says which, its message what to fix. Every result has message: the answer in plain words. A tool's own failure { error, detail } is returned, not thrown. */
declare class ToolCallError extends Error {
  readonly data?: unknown;
}`;

/**
 * TypeScript declarations for the tools given, compact (only what they reach): per toolset a
 * namespace under `api`, per tool its argument and result types (from the same schemas the
 * server advertises, `$defs` as named interfaces) and a function returning a promise of its result,
 * with JSDoc from descriptions, formats, bounds, defaults and examples.
 */
export function catalogDeclarations(tools: readonly DeclaredTool[]): CatalogDeclarations {
  const byNamespace = new Map<string, DeclaredTool[]>();
  for (const tool of tools) byNamespace.set(identifier(tool.namespace), [...(byNamespace.get(identifier(tool.namespace)) ?? []), tool]);
  const namespaces: Record<string, string[]> = {};
  const routes = new Map<string, DeclaredTool>();
  const parts = new Map<string, NamespaceDeclarations>();
  for (const [namespace, members] of byNamespace) {
    const emitted = new NamespaceTypes(members.flatMap((tool) => Object.values(toolTypeNames(tool))));
    const outputs = new Map(members.map((tool) => [tool, tool.outputSchema && withoutFrameworkDocs(tool.outputSchema)]));
    emitted.hoistRepeated(members.flatMap((tool) => [tool.inputSchema, ...(outputs.get(tool) ? [outputs.get(tool)!] : [])]));
    const functions: NamespaceDeclarations['functions'] = new Map();
    namespaces[namespace] = [];
    for (const tool of members) {
      const fn = identifier(tool.name);
      namespaces[namespace].push(fn);
      routes.set(`${namespace}.${fn}`, tool);
      const names = toolTypeNames(tool);
      const args = emitted.named(names.args, tool.inputSchema, tool.name);
      const output = outputs.get(tool);
      const result = output ? emitted.named(names.result, output, tool.name) : 'unknown';
      const optional = (tool.inputSchema.required ?? []).length === 0 ? '?' : '';
      const doc = jsDoc({ description: tool.description }, '    ');
      functions.set(fn, { text: `${doc ? `${doc}\n` : ''}    function ${fn}(args${optional}: ${args}): Promise<${result}>;`, args, result });
    }
    parts.set(namespace, { types: emitted.types(), functions });
  }
  const blocks = new Map([...parts].map(([namespace, part]) => [namespace, [...part.types.values(), ...part.functions.values()].map((declaration) => declaration.text)]));
  return { text: declarationsText(blocks), namespaces, tools: routes, parts };
}

/**
 * A result schema without the JSDoc the header says once (TOOL_CALL_ERROR): the `message` of each
 * arm, and the words of the `{ error, detail }` arm (ToolError). The types are untouched.
 */
function withoutFrameworkDocs(schema: JsonSchema): JsonSchema {
  const arms = schema.anyOf ?? schema.oneOf;
  if (arms) return { ...schema, [schema.anyOf ? 'anyOf' : 'oneOf']: arms.map(withoutFrameworkDocs) };
  const properties = schema.properties;
  if (!properties) return schema;
  const keys = Object.keys(properties);
  if (keys.length === 2 && ['error', 'detail'].every((key) => properties[key]?.type === 'string')) {
    const { description: _description, ...plain } = schema;
    return { ...plain, properties: Object.fromEntries(keys.map((key) => [key, undocumented(properties[key]!)])) };
  }
  return properties['message']?.type === 'string' ? { ...schema, properties: { ...properties, message: undocumented(properties['message']) } } : schema;
}

const undocumented = ({ description: _description, ...rest }: JsonSchema): JsonSchema => rest;

/** The catalog's declarations as one text: `ToolCallError`, then `api` with a namespace of the lines given for each. */
function declarationsText(blocks: ReadonlyMap<string, readonly string[]>): string {
  const namespaces = [...blocks].map(([namespace, lines]) => `  namespace ${namespace} {\n${lines.join('\n')}\n  }`);
  return `${TOOL_CALL_ERROR}\n\ndeclare namespace api {\n${namespaces.join('\n\n')}\n}\n`;
}

/** The names of a tool's own argument and result types. */
function toolTypeNames(tool: DeclaredTool): { args: string; result: string } {
  return { args: `${pascal(tool.name)}Args`, result: `${pascal(tool.name)}Result` };
}

/** The named types of one namespace: each tool's argument and result type, and the `$defs` they share. */
class NamespaceTypes {
  /** Declared types in order: name, and JSDoc with declaration. */
  private readonly declared: { name: string; text: string }[] = [];
  private readonly definitions = new Map<string, string>();
  /** Declared object types by shape (`shapeKey`): an object of the same shape written out elsewhere is printed by its name. */
  private readonly shapes = new Map<string, string>();
  /** The names `hoistRepeated` gave: a `$defs` entry of the same name is named after its tool too. */
  private readonly hoisted = new Set<string>();
  /** The JSDoc written at a use of a declared type, each once: an API repeats a type's own words at every property of that type. */
  private readonly docs = new Set<string>();
  /** Every name declared so far, and each tool's argument and result type's name from the start, so that a nested type's name is new. */
  private readonly names: Set<string>;

  constructor(reserved: readonly string[]) {
    this.names = new Set(reserved);
  }

  /** The declared types, each with the other declared types its declaration mentions. */
  types(): NamespaceDeclarations['types'] {
    const names = new Set(this.declared.map((type) => type.name));
    return new Map(this.declared.map(({ name, text }) => [name, { text, refs: mentioned(text, names).filter((ref) => ref !== name) }]));
  }

  /**
   * Declares, first, each object type the schemas write out inline more than once (by shape, in
   * any of them): its later uses print its name. Named after its schema's title, else after the
   * property it first holds.
   */
  hoistRepeated(schemas: readonly JsonSchema[]): void {
    const seen = new Map<string, { schema: JsonSchema; count: number; name: string }>();
    /** `$defs` entries by shape: each is declared under its own name (the first of a name keeps it), which its inline twins then print. */
    const defined = new Map<string, string>();
    const visit = (node: unknown, key: string, top: boolean, definition = false): void => {
      if (Array.isArray(node)) return node.forEach((item) => visit(item, key, false));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as JsonSchema;
      const own = definition ? shapeKey(schema) : undefined;
      if (own !== undefined && !defined.has(own) && ![...defined.values()].includes(pascal(key))) defined.set(own, pascal(key));
      const shape = top ? undefined : shapeKey(schema);
      if (shape !== undefined) {
        const found = seen.get(shape);
        if (found) found.count++;
        else seen.set(shape, { schema, count: 1, name: pascal(typeof schema.title === 'string' ? schema.title : key) });
      }
      for (const [name, child] of Object.entries(schema.properties ?? {})) visit(child, name, false);
      for (const [name, child] of Object.entries(schema.$defs ?? {})) visit(child, name, true, true);
      for (const list of [schema.anyOf, schema.oneOf, schema.allOf, schema.prefixItems]) if (list) visit(list, key, false);
      if (schema.items !== undefined) visit(schema.items, key, false);
      if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, key, false);
    };
    for (const schema of schemas) visit(schema, 'Shape', true);
    for (const [shape, name] of defined) this.shapes.set(shape, name);
    const repeated = [...seen.entries()].filter(([shape, found]) => found.count > 1 && !defined.has(shape));
    for (const [shape, found] of repeated) {
      let name = `${found.name}Shape`;
      for (let n = 2; this.hoisted.has(name); n++) name = `${found.name}Shape${n}`;
      this.hoisted.add(name);
      this.shapes.set(shape, name);
    }
    for (const [shape, found] of repeated) this.declare(this.shapes.get(shape)!, found.schema, () => 'unknown');
  }

  /** Declares `name` for `schema` (its `$defs` first) and returns the name. */
  named(name: string, schema: JsonSchema, tool: string): string {
    const renamed = new Map<string, string>();
    for (const [key, definition] of Object.entries(schema.$defs ?? {})) renamed.set(key, this.definition(key, definition, tool, renamed));
    this.declare(name, schema, (key) => renamed.get(key) ?? 'unknown');
    return name;
  }

  /** One `$defs` entry, shared with other tools when it is the same schema, else named after this tool too. */
  private definition(key: string, schema: JsonSchema, tool: string, renamed: Map<string, string>): string {
    const json = JSON.stringify(schema);
    const plain = pascal(key);
    const free = this.definitions.get(plain) === undefined ? !this.names.has(plain) : this.definitions.get(plain) === json;
    const name = !this.hoisted.has(plain) && free ? plain : `${plain}Of${pascal(tool)}`;
    if (this.definitions.has(name)) return name;
    this.definitions.set(name, json);
    renamed.set(key, name);
    this.declare(name, schema, (ref) => renamed.get(ref) ?? pascal(ref));
    return name;
  }

  private declare(name: string, schema: JsonSchema, rename: (key: string) => string): void {
    const { $defs: _defs, ...own } = schema;
    const ownShape = shapeKey(own);
    // Its place first: a type reads before the types it names.
    const entry = { name, text: '' };
    this.declared.push(entry);
    this.names.add(name);
    const naming: TypeNaming = Object.assign((key: string) => rename(key), {
      shape: (candidate: JsonSchema) => {
        const key = shapeKey(candidate);
        return key === undefined || key === ownShape ? undefined : this.shapes.get(key);
      },
      firstDoc: (type: string, doc: string) => !this.docs.has(`${type}\n${doc}`) && Boolean(this.docs.add(`${type}\n${doc}`)),
      nested: (candidate: JsonSchema, key: string) => {
        if (fitsInline(candidate, (object) => this.shapes.has(shapeKey(object) ?? ''))) return undefined;
        let nestedName = `${name}${pascal(key)}`;
        for (let n = 2; this.names.has(nestedName); n++) nestedName = `${name}${pascal(key)}${n}`;
        this.declare(nestedName, candidate, rename);
        return nestedName;
      },
    });
    const type = schemaType(own, naming, '    ');
    const doc = jsDoc(own, '    ');
    const isInterface = type.startsWith('{') && !hasTopLevelOperator(type);
    entry.text = `${doc ? `${doc}\n` : ''}${isInterface ? `    interface ${name} ${type}` : `    type ${name} = ${type};`}`;
    if (isInterface && ownShape !== undefined && !this.shapes.has(ownShape)) this.shapes.set(ownShape, name);
  }
}

/** The most fields an object nested in another may have and still be written where it is. */
const INLINE_FIELDS = 6;

/**
 * Whether a nested object is written where it is rather than declared under a name of its own: a
 * few fields, none of them an object written out in turn. Larger ones are named (`RepositoryLinks`),
 * so that `describe` can write a type a level at a time and name what is deeper.
 */
function fitsInline(schema: JsonSchema, declared: (object: JsonSchema) => boolean): boolean {
  const fields = Object.values(schema.properties ?? {});
  return fields.length <= INLINE_FIELDS && fields.every((field) => !holdsObject(field, declared));
}

/** Whether a schema is, or lists, or may be, an object written out (with properties of its own, and not `declared` under a name). */
function holdsObject(schema: JsonSchema | boolean | undefined, declared: (object: JsonSchema) => boolean): boolean {
  if (typeof schema !== 'object') return false;
  if (schema.properties && Object.keys(schema.properties).length > 0 && !declared(schema)) return true;
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  return [...items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].some((part) => holdsObject(part, declared));
}

/** The names of `names` that `text` uses as identifiers, outside its comments and string literals, in order of first use. */
function mentioned(text: string, names: ReadonlySet<string>): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, ' ');
  return [...new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? [])].filter((word) => names.has(word));
}
