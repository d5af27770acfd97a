import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a README `ts` block is checked as: its own file, the body of a test, or text a generator
 * writes; `consumer` blocks belong to a project outside this workspace, and the adoption tests that
 * build one check them (`documentedBlocks` leaves them out).
 */
export interface ReadmeBlock {
  /** The document it stands in, from the workspace root: `README.md`, `docs/openapi.md`. */
  source: string;
  line: number;
  mode: 'file' | 'spec' | 'generated' | 'consumer';
  path: string;
  /** For `spec`: import lines the block needs that the README leaves out. */
  header: string;
  code: string;
}

const ANNOTATION = /^<!-- readme-check: (file|spec|generated|consumer) (\S+)(?: \| (.*))? -->$/;

/** Every ```ts block of the README and of each document in `docs/`, each with its source. */
export function documentedBlocks(root: string): ReadmeBlock[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true }).map(String).filter((file) => file.endsWith('.md')).sort();
  return [readmeBlocks(join(root, 'README.md')), ...docs.map((file) => readmeBlocks(join(root, 'docs', file), `docs/${file}`))].flat().filter((block) => block.mode !== 'consumer');
}

/**
 * Every ```ts block of a document with the `<!-- readme-check: ... -->` line just above it; a ts
 * block without one is an error, so no example can escape the check.
 */
export function readmeBlocks(readmePath: string, source = 'README.md'): ReadmeBlock[] {
  const lines = readFileSync(readmePath, 'utf-8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const annotation = ANNOTATION.exec(lines[i - 1] ?? '');
    if (!annotation) throw new Error(`${source}:${i + 1}: a ts block without a <!-- readme-check: file|spec|generated|consumer <path> --> line above it.`);
    const end = lines.indexOf('```', i + 1);
    blocks.push({
      source,
      line: i + 1,
      mode: annotation[1] as ReadmeBlock['mode'],
      path: annotation[2],
      header: (annotation[3] ?? '').replace(/; /g, ';\n'),
      code: lines.slice(i + 1, end).join('\n'),
    });
    i = end;
  }
  return blocks;
}

/** A `spec` block as a Jest test file: its imports hoisted, its statements inside one async test. */
export function specFile(block: ReadmeBlock): string {
  const lines = block.code.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  return [
    `// ${block.source}:${block.line}, checked by the generators' end-to-end test.`,
    ...imports,
    block.header,
    '',
    `it('runs the example at ${block.source}:${block.line}', async () => {`,
    ...body.map((line) => (line ? `  ${line}` : line)),
    '});',
    '',
  ].join('\n');
}

/** Lines with their indentation and trailing spaces normalised, for comparing generated code. */
export function normalised(code: string): string {
  return code
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}
