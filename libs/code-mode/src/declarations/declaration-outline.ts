import { TOOL_CALL_ERROR, type CatalogDeclarations } from './catalog-declarations';

/**
 * How deep `describe` writes out a result's named types: the result type, and the types it names
 * directly. Deeper ones are listed by name, and `describe` writes any of them out when asked by
 * name (the checker knows them all, and its errors name them). A nested object of more than a few
 * fields has a name of its own (`RepositoryMainbranch`), so this is a level of the answer's objects.
 */
export const RESULT_DEPTH = 1;

/**
 * The same for a tool's arguments: the argument type and the types it names directly are written
 * out (a call must be right the first time); the parts of a request body below those (Bitbucket's
 * comment carries a whole issue, with its repository, optional) are named, to be asked for by name.
 */
export const ARGUMENTS_DEPTH = 1;

/** What one `describe` asks for, by namespace identifier: functions, and named types. */
export interface OutlineRequest {
  functions: readonly { namespace: string; fn: string }[];
  types: readonly { namespace: string; name: string }[];
}

/**
 * A part of the catalog's declarations, as `describe` answers: the functions asked for with their
 * argument types ARGUMENTS_DEPTH named types deep and their result types `depth` deep, and the
 * types asked for by name to the same depth. The named types it mentions but leaves out are
 * listed at the end of their namespace, to be asked for by name. The names are the catalog's own,
 * the ones the checker uses in its errors.
 */
export function declarationOutline(declarations: CatalogDeclarations, request: OutlineRequest, depth = RESULT_DEPTH): string {
  const blocks = new Map<string, string[]>();
  /** The JSDoc already written in this answer: the same words at another property (each tool's `workspace`) are not written again. */
  const docs = new Set<string>();
  for (const [namespace, part] of declarations.parts) {
    const functions = request.functions.filter((wanted) => wanted.namespace === namespace && part.functions.has(wanted.fn)).map((wanted) => wanted.fn);
    const types = request.types.filter((wanted) => wanted.namespace === namespace && part.types.has(wanted.name)).map((wanted) => wanted.name);
    if (functions.length === 0 && types.length === 0) continue;
    /** The most levels still to write below each type reached. */
    const reached = new Map<string, number>();
    /** The tools' argument types: written with their JSDoc whole. The types they name keep more of it than a result's. */
    const asked = new Set<string>();
    const reachedByArgs = new Set<string>();
    const reach = (name: string, below: number, byArgs = false): void => {
      const type = part.types.get(name);
      if (!type) return;
      // A type an argument names keeps its longer JSDoc, whichever tool's result reached it first.
      if (byArgs) reachedByArgs.add(name);
      if ((reached.get(name) ?? -1) >= below) return;
      reached.set(name, below);
      if (below > 0) for (const ref of type.refs) reach(ref, below - 1, byArgs);
    };
    for (const fn of functions) {
      const { args, result } = part.functions.get(fn)!;
      asked.add(args);
      reach(args, ARGUMENTS_DEPTH, true);
      reach(result, depth);
    }
    for (const name of types) reach(name, depth);
    const written = [...part.types].filter(([name]) => reached.has(name));
    const left = [...new Set(written.flatMap(([, type]) => type.refs))].filter((ref) => !reached.has(ref));
    blocks.set(namespace, [
      ...written.map(([name, type]) => oneLine(onceEach(asked.has(name) ? plainLinks(type.text) : briefDocs(plainLinks(type.text), reachedByArgs.has(name) ? ARGUMENT_BRIEF : BRIEF), docs))),
      ...functions.map((fn) => briefToolDoc(part.functions.get(fn)!.text)),
      ...(left.length > 0 ? [`    // Not written out here (describe them by name): ${left.join(', ')}.`] : []),
    ]);
  }
  // ToolCallError is what calls throw: written with functions, not again with types asked for later.
  return blocks.size > 0 ? outlineText(blocks, request.functions.length > 0) : '';
}

/**
 * The answer's text: `ToolCallError` (unless left out), then a `declare namespace api.<toolset>`
 * per toolset, its lines one level less indented than in the catalog's nested `api` (the same
 * declarations to TypeScript; two spaces a line fewer to read).
 */
function outlineText(blocks: ReadonlyMap<string, readonly string[]>, toolCallError: boolean): string {
  const namespaces = [...blocks].map(([namespace, lines]) => `declare namespace api.${namespace} {\n${compactLayout(lines.join('\n').replace(/^ {2}/gm, ''))}\n}`);
  return `${toolCallError ? `${TOOL_CALL_ERROR}\n\n` : ''}${namespaces.join('\n\n')}\n`;
}

/**
 * `text` laid out for reading, the same declarations to TypeScript: a one-line JSDoc after the
 * line it documents (`id: number; // The pull request's unique ID.`), and one space of indent a
 * level instead of two (a multi-line comment's ` * ` keeps its place under its `/**`).
 */
function compactLayout(text: string): string {
  return text
    .replace(/^( *)\/\*\* (.*?) \*\/\n\1([\w'"$][^\n]*[;{])$/gm, (_, indent: string, doc: string, line: string) => `${indent}${line} // ${doc}`)
    .replace(/^( +)(\*?)/gm, (_, spaces: string, star: string) => `${' '.repeat(Math.floor(spaces.length / 2))}${star ? ` ${star}` : ''}`);
}

/**
 * `text` with each object type of a few undocumented fields on one line (`{ href: string; name: string }`),
 * innermost first: the same type, without a line and an indent per field.
 */
function oneLine(text: string): string {
  let before: string;
  do {
    before = text;
    text = text.replace(/\{\n((?: +(?=[^ ])(?!\/\*\*|\* |\*\/|\})[^\n]*;\n){1,6}) *\}/g, (block: string, fields: string) => {
      const line = `{ ${fields.trim().split(/;\n */).join('; ').replace(/;$/, '')} }`;
      return line.length <= ONE_LINE ? line : block;
    });
  } while (text !== before);
  return text;
}

/**
 * `text` with each JSDoc comment cut to its first sentence, at most BRIEF characters: a result's
 * fields are read by name and type, and an API's prose about each (Bitbucket's run to paragraphs)
 * was most of what `describe` answered (bench 16c).
 */
function briefDocs(text: string, brief: number): string {
  return text.replace(/^( *)\/\*\*(?: (.*?) \*\/|\n([\s\S]*?)\n *\*\/)$/gm, (_, indent: string, line?: string, block?: string) => {
    const prose = (line ?? block!.replace(/^ *\* ?/gm, '')).replace(/\s+/g, ' ').trim();
    // A sentence ends at . ! or ? before a capital, not at "e.g." or "i.e.".
    const first = prose.split(/(?<![ei]\.[eg]\.)(?<=[.!?])\s+(?=[A-Z])/)[0]!;
    return `${indent}/** ${first.length > brief ? `${first.slice(0, brief - 1)}…` : first} */`;
  });
}

/**
 * `text` with a Markdown link in its comments written as its words (`[Using pagination](https://…)`
 * → `Using pagination`): a program reaches no web page, and GitHub's and Spotify's docs put the same
 * address at every page and per_page.
 */
function plainLinks(text: string): string {
  return text.replace(/\/\*\*[\s\S]*?\*\//g, (comment) => comment.replace(MARKDOWN_LINK, '$1'));
}

/** `[words](address)`, the address with at most one level of parentheses in it. */
const MARKDOWN_LINK = /\[([^\]\n]+)\]\((?:[^()\s]|\([^()\s]*\))+\)/g;

/**
 * A function's JSDoc (the tool's description) cut to its first TOOL_PARAGRAPHS paragraphs, at most
 * TOOL_BRIEF characters, links as words: what the tool does, where an API's description goes on
 * about media types and rate limits (GitHub's run to a kilobyte a tool). A cut one says where the
 * rest is (a `search` program reads `catalog[].description` whole).
 */
function briefToolDoc(text: string): string {
  return plainLinks(text).replace(/^( *)\/\*\*(?: (.*?) \*\/|\n([\s\S]*?)\n *\*\/)$/m, (comment, indent: string, line?: string, block?: string) => {
    const paragraphs = (line ?? block!.replace(/^ *\* ?/gm, ''))
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    const kept: string[] = [];
    let cut = paragraphs.length > TOOL_PARAGRAPHS;
    for (const paragraph of paragraphs.slice(0, TOOL_PARAGRAPHS)) {
      if (paragraph.length <= TOOL_BRIEF - kept.join(' ').length) {
        kept.push(paragraph);
        continue;
      }
      if (kept.length === 0) kept.push(`${paragraph.slice(0, TOOL_BRIEF - 1)}…`);
      cut = true;
      break;
    }
    if (!cut) return comment;
    const lines = [...kept, TOOL_DOC_REST];
    return `${indent}/**\n${lines.map((part) => `${indent} * ${part}`).join('\n')}\n${indent} */`;
  });
}

/** What a cut tool description says of the rest. */
const TOOL_DOC_REST = "(More in search's catalog: description.)";

/** The longest tool description `describe` writes whole: longer ones are cut after a paragraph. */
const TOOL_BRIEF = 300;

/** The most paragraphs of a tool description `describe` writes: its title or summary, and what it does. */
const TOOL_PARAGRAPHS = 2;

/** `text` without the JSDoc comments on its properties whose words `seen` has, adding the others to it. */
function onceEach(text: string, seen: Set<string>): string {
  return text.replace(/^( *)\/\*\*(?: (.*?) \*\/|\n([\s\S]*?)\n *\*\/)\n(?=\1[\w'"$])/gm, (comment: string, _indent: string, line?: string, block?: string) => {
    const words = (line ?? block!.replace(/^ *\* ?/gm, '')).replace(/\s+/g, ' ').trim();
    if (seen.has(words)) return '';
    seen.add(words);
    return comment;
  });
}

/** The longest JSDoc a result's type keeps: its first sentence, cut here. */
const BRIEF = 60;

/** The same for a type an argument names (a request body's parts): what to send weighs more than what comes back. */
const ARGUMENT_BRIEF = 120;

/** The longest object type written on one line. */
const ONE_LINE = 100;
