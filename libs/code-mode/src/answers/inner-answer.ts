import type { CallToolResult } from '@modelcontextprotocol/server';
import { declaresError } from '../declarations/declared-errors';
import type { JsonSchema } from '../declarations/schema-type';
import type { InnerCallAnswer } from '../sandbox/sandbox-outcome';

/**
 * What a program sees of one inner call's result. A success is its `structuredContent` (what the
 * tool's declared result type says). A `ToolError` of a kind the tool declares is a value too: the
 * declarations include it, and the program branches on `error`. Anything else the server answered
 * with `isError` (invalid arguments, a rate limit, a question this client cannot be asked, a tool that
 * failed) is thrown in the program as a `ToolCallError` named after its kind, with the server's text.
 */
export function innerAnswer(result: CallToolResult, outputSchema: JsonSchema | undefined): InnerCallAnswer {
  const content = result.structuredContent as Record<string, unknown> | undefined;
  if (!result.isError) return { value: content ?? textOf(result) };
  const kind = typeof content?.['error'] === 'string' ? (content['error'] as string) : undefined;
  if (kind !== undefined && declaresError(outputSchema, kind)) return { value: content };
  if (kind !== undefined) return { error: { name: kind, message: typeof content?.['detail'] === 'string' ? (content['detail'] as string) : textOf(result), data: content } };
  // A ToolError from a tool whose result declares none (an interceptor's, a refused question) comes as the text `kind: detail`.
  const text = textOf(result);
  const plain = TOOL_ERROR_TEXT.exec(text);
  return { error: plain ? { name: plain[1]!, message: plain[2]! } : { name: 'ToolCallError', message: text } };
}

const TOOL_ERROR_TEXT = /^([a-z][a-z0-9_]{0,63}): ([\s\S]*)$/;

/** The text blocks of a result, joined: what a client without structured content reads. */
function textOf(result: CallToolResult): string {
  return result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
