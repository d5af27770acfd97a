import { basename } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** One field of an elicitation form's `requestedSchema` (the protocol allows only flat primitives). */
interface FormField {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const: unknown; title?: string }[];
  items?: { enum?: unknown[]; anyOf?: { const: unknown }[] };
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

type FieldValue = string | number | boolean | string[];

export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, FieldValue>;
}

/** A value typed at the prompt, or why it is not one. */
type Parsed = { value: FieldValue } | { problem: string };

/**
 * Answers a server's questions from the terminal (or from piped lines): an elicitation form field
 * by field, a URL elicitation by waiting for Enter, roots with the working directory. A line per
 * answer, so a script can pipe them in; the end of input cancels.
 */
export class TerminalAnswers {
  private lines?: AsyncIterator<string>;
  private reader?: Interface;
  /** The prompt waiting for a line, if any: a notice printed meanwhile goes on a line of its own, then the prompt again. */
  private waiting?: string;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {}

  async elicit(params: Record<string, unknown>): Promise<ElicitAnswer> {
    const message = String(params['message'] ?? 'The server asks:');
    if (params['mode'] === 'url') {
      this.say(`\n? ${message}\n  Open ${String(params['url'])} and finish there.`);
      const line = await this.ask('  Press Enter when done (or type decline / cancel): ');
      return { action: line === undefined ? 'cancel' : decision(line) ?? 'accept' };
    }
    this.say(`\n? ${message}`);
    const choice = await this.ask('  Answer it? [Y]es / (d)ecline / (c)ancel: ');
    const action = choice === undefined ? 'cancel' : decision(choice) ?? (/^(y|yes)?$/i.test(choice.trim()) ? 'accept' : undefined);
    if (action !== 'accept') return { action: action ?? 'cancel' };
    const schema = (params['requestedSchema'] ?? {}) as { properties?: Record<string, FormField>; required?: string[] };
    const content: NonNullable<ElicitAnswer['content']> = {};
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      const required = schema.required?.includes(name) ?? false;
      const value = await this.field(name, field, required);
      if (value === null) return { action: 'cancel' };
      if (value !== undefined) content[name] = value;
    }
    return { action: 'accept', content };
  }

  /**
   * A line about something else (a task's status) printed while the user may be answering: never
   * on the prompt's line, which is printed again after it.
   */
  notice(text: string): void {
    this.output.write(this.waiting === undefined ? `${text}\n` : `\n${text}\n${this.waiting}`);
  }

  /** The roots a CLI has: the directory it runs in. */
  roots(): { roots: { uri: string; name: string }[] } {
    return { roots: [{ uri: pathToFileURL(process.cwd()).href, name: basename(process.cwd()) }] };
  }

  close(): void {
    this.reader?.close();
  }

  /** One field's value, asked until it parses; `undefined` when an optional one is left empty, `null` at the end of input. */
  private async field(name: string, field: FormField, required: boolean): Promise<FieldValue | undefined | null> {
    const label = `  ${field.title ?? name}${field.description ? ` (${field.description})` : ''} ${hint(field)}${required ? '' : ' [optional]'}${field.default !== undefined ? ` [${String(field.default)}]` : ''}: `;
    for (;;) {
      const line = await this.ask(label);
      if (line === undefined) return null;
      const typed = line.trim();
      if (typed === '') {
        if (field.default !== undefined) return field.default as FieldValue;
        if (!required) return undefined;
        this.say('    An answer is required.');
        continue;
      }
      const parsed = parse(typed, field);
      if ('value' in parsed) return parsed.value;
      this.say(`    ${parsed.problem}`);
    }
  }

  private say(text: string): void {
    this.output.write(`${text}\n`);
  }

  /** The next line typed, or `undefined` at the end of input. */
  private async ask(prompt: string): Promise<string | undefined> {
    this.output.write(prompt);
    if (!this.lines) {
      // Made at the first question, so a blocking call with none never holds the terminal open.
      this.reader = createInterface({ input: this.input, terminal: false });
      this.lines = this.reader[Symbol.asyncIterator]();
    }
    this.waiting = prompt;
    const next = await this.lines.next().finally(() => (this.waiting = undefined));
    if (!(this.input as { isTTY?: boolean }).isTTY && !next.done) this.output.write(`${next.value}\n`);
    return next.done ? undefined : next.value;
  }
}

function decision(line: string): 'decline' | 'cancel' | undefined {
  const word = line.trim().toLowerCase();
  if (word === 'd' || word === 'decline') return 'decline';
  if (word === 'c' || word === 'cancel') return 'cancel';
  return undefined;
}

function choices(field: FormField): unknown[] | undefined {
  return field.enum ?? field.oneOf?.map((option) => option.const) ?? field.items?.enum ?? field.items?.anyOf?.map((option) => option.const);
}

function hint(field: FormField): string {
  const options = choices(field);
  if (field.type === 'array') return `(one or more of ${options?.join(', ')}, comma-separated)`;
  if (options) return `(${options.join(' | ')})`;
  if (field.type === 'boolean') return '(y/n)';
  if (field.type === 'number' || field.type === 'integer') return `(${field.type === 'integer' ? 'a whole number' : 'a number'}${field.minimum !== undefined ? ` ≥ ${field.minimum}` : ''}${field.maximum !== undefined ? ` ≤ ${field.maximum}` : ''})`;
  return '';
}

function parse(typed: string, field: FormField): Parsed {
  const options = choices(field)?.map(String);
  if (field.type === 'array') {
    const picked = typed.split(',').map((part) => part.trim()).filter(Boolean);
    const unknown = picked.filter((part) => options && !options.includes(part));
    return unknown.length > 0 ? { problem: `Not a choice: ${unknown.join(', ')}. Pick from ${options!.join(', ')}.` } : { value: picked };
  }
  if (options) return options.includes(typed) ? { value: typed } : { problem: `Pick one of ${options.join(', ')}.` };
  if (field.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(typed)) return { value: true };
    if (/^(n|no|false)$/i.test(typed)) return { value: false };
    return { problem: 'Answer y or n.' };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const value = Number(typed);
    if (!Number.isFinite(value) || (field.type === 'integer' && !Number.isInteger(value))) return { problem: `Type ${field.type === 'integer' ? 'a whole number' : 'a number'}.` };
    if ((field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum)) return { problem: `Type a number from ${field.minimum ?? '−∞'} to ${field.maximum ?? '∞'}.` };
    return { value };
  }
  return { value: typed };
}
