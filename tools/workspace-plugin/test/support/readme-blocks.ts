import { readFileSync } from 'node:fs';

/** What a README `ts` block is checked as: its own file, the body of a test, or text a generator writes. */
export interface ReadmeBlock {
  line: number;
  mode: 'file' | 'spec' | 'generated';
  path: string;
  /** For `spec`: import lines the block needs that the README leaves out. */
  header: string;
  code: string;
}

const ANNOTATION = /^<!-- readme-check: (file|spec|generated) (\S+)(?: \| (.*))? -->$/;

/**
 * Every ```ts block of the README with the `<!-- readme-check: ... -->` line just above it; a ts
 * block without one is an error, so no example can escape the check.
 */
export function readmeBlocks(readmePath: string): ReadmeBlock[] {
  const lines = readFileSync(readmePath, 'utf-8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const annotation = ANNOTATION.exec(lines[i - 1] ?? '');
    if (!annotation) throw new Error(`README.md:${i + 1}: a ts block without a <!-- readme-check: file|spec|generated <path> --> line above it.`);
    const end = lines.indexOf('```', i + 1);
    blocks.push({
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
    `// README.md:${block.line}, checked by the generators' end-to-end test.`,
    ...imports,
    block.header,
    '',
    `it('runs the README example at line ${block.line}', async () => {`,
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
