import { dereference } from '@readme/openapi-parser';
import { unescapeKey } from '../utils/json-pointer';
import { structureProblems, withoutRefSiblings, type StructureProblem } from './document-structure';
import { prettyJsonPointers, type LocatePointer } from './source-lines';
import { validateOnce } from './validate-once';

/** An OpenAPI 3.0/3.1 document after validation and dereferencing: no `$ref` is left (cycles stay as object cycles). */
export interface OpenApiDocument {
  openapi: string;
  info: { title?: string; version?: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, unknown> | undefined>;
  components?: { securitySchemes?: Record<string, unknown> };
  security?: Record<string, string[]>[];
}

/** A loaded document and the component name of each schema that came from `#/components/schemas/<Name>`. */
export interface LoadedDocument {
  document: OpenApiDocument;
  schemaNames: ReadonlyMap<object, string>;
  /** What was read differently from how the document is written, and why (3.0's ignored `$ref` siblings). */
  warnings: string[];
}

/**
 * The parser's findings, each placed in the user's file: the parser quotes a pretty-printed JSON
 * copy of the document (`> 17 |`), so each quoted line is turned back into its JSON pointer and
 * the pointer into the line of `source` (when `locate` knows the file's text).
 */
function describeErrors(document: unknown, errors: readonly { message: string }[], source: string, locate: LocatePointer | undefined): string {
  const pointers = prettyJsonPointers(document);
  const version = String((document as { openapi?: unknown }).openapi ?? '');
  return errors
    .map((error) => {
      const [summary, ...rest] = error.message.split('\n\n');
      const frame = rest.join('\n\n');
      const quoted = /^> (\d+) \|(.*)$/m.exec(frame);
      const pointer = quoted ? pointers[Number(quoted[1]) - 1] : undefined;
      const line = pointer !== undefined ? locate?.(pointer) : undefined;
      const where = pointer === undefined ? '' : ` at ${line !== undefined ? `${source}:${line} ` : ''}(#${pointer})`;
      // 3.1 allows `type: 'null'`; a 3.0 document must say `nullable: true`.
      const hint = quoted && /"type": "null"/.test(quoted[2]!) && version.startsWith('3.0') ? `\n  \`type: 'null'\` is an OpenAPI 3.1 construct: in a ${version} document write \`nullable: true\` on the schema, or declare \`openapi: 3.1.0\`.` : '';
      return `- ${summary!.replace(/\s*\n\s*/g, ' ').trim()}${where}${hint}`;
    })
    .join('\n');
}

/** Each place that breaks OpenAPI 3.0's schema, once, at the line of the user's file. */
function describeProblems(problems: readonly StructureProblem[], document: unknown, version: string, source: string, locate: LocatePointer | undefined): string {
  return problems
    .map(({ pointer, message }) => {
      const line = locate?.(pointer);
      const nullType = pointer.endsWith('/type') && valueIsNull(document, pointer);
      const hint = nullType ? `\n  \`type: 'null'\` is an OpenAPI 3.1 construct: in a ${version} document write \`nullable: true\` on the schema, or declare \`openapi: 3.1.0\`.` : '';
      return `- ${message} at ${line !== undefined ? `${source}:${line} ` : ''}(#${pointer})${hint}`;
    })
    .join('\n');
}

function valueIsNull(document: unknown, pointer: string): boolean {
  let value = document;
  for (const part of pointer.split('/').slice(1)) value = (value as Record<string, unknown> | undefined)?.[unescapeKey(part)];
  return value === 'null' || (Array.isArray(value) && value.includes('null'));
}

/** `$ref` siblings dropped from a 3.0 document, named where they are (at most five, then a count). */
function refSiblingsWarning(dropped: readonly { pointer: string; keys: string[] }[], source: string, locate: LocatePointer | undefined): string {
  const named = dropped.slice(0, 5).map(({ pointer, keys }) => {
    const line = locate?.(pointer);
    return `${keys.map((key) => `\`${key}\``).join(', ')} at ${line !== undefined ? `${source}:${line} ` : ''}(#${pointer})`;
  });
  const more = dropped.length > 5 ? `, and ${dropped.length - 5} more` : '';
  return `OpenAPI 3.0 ignores keywords beside a \`$ref\`, so ${dropped.length} \`$ref\`${dropped.length === 1 ? '' : 's'} were read without them: ${named.join('; ')}${more} (move them into the referenced schema, or wrap the two in \`allOf\`, if they were meant)`;
}

/** The document cannot be used: the parser's own words, which name the JSON pointer at fault. */
export class OpenApiDocumentError extends Error {
  constructor(source: string, detail: string) {
    super(`${source} is not an OpenAPI document this generator can use:\n${detail.trim()}\nFix the document (or point --spec at another one); nothing was written.`);
    this.name = 'OpenApiDocumentError';
  }
}

/**
 * Validates and dereferences a parsed document with `@readme/openapi-parser` (no hand-written `$ref`
 * resolver). Only OpenAPI 3.0 and 3.1 are accepted; Swagger 2.0 is refused with the reason.
 */
export async function loadDocument(document: unknown, source: string, locate?: LocatePointer): Promise<LoadedDocument> {
  const version = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    const swagger = (document as { swagger?: unknown } | null)?.swagger;
    throw new OpenApiDocumentError(source, swagger ? `it is Swagger ${String(swagger)}; convert it to OpenAPI 3.0 or 3.1 first.` : '`openapi` must be "3.0.x" or "3.1.x" at the root (#/openapi).');
  }
  const warnings: string[] = [];
  if (version.startsWith('3.0.')) {
    const { document: followed, dropped } = withoutRefSiblings(document);
    if (dropped.length > 0) warnings.push(refSiblingsWarning(dropped, source, locate));
    document = followed;
    const problems = structureProblems(document);
    if (problems.length > 0) throw new OpenApiDocumentError(source, describeProblems(problems, document, version, source, locate));
  }
  const result = await validateOnce(document);
  if (!result.valid) throw new OpenApiDocumentError(source, describeErrors(document, result.errors ?? [], source, locate));
  const schemaNames = new Map<object, string>();
  const onDereference = (path: string, value: object) => {
    const name = /^#\/components\/schemas\/([^/]+)$/.exec(path)?.[1];
    if (name && !schemaNames.has(value)) schemaNames.set(value, decodeURIComponent(unescapeKey(name)));
  };
  try {
    // The parser mutates what it is given: hand it a copy.
    const dereferenced = (await dereference(structuredClone(document) as never, { dereference: { onDereference } })) as unknown as OpenApiDocument;
    return { document: dereferenced, schemaNames, warnings };
  } catch (error) {
    throw new OpenApiDocumentError(source, (error as Error).message);
  }
}
