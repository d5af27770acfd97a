import { ProtocolError, SdkError, SdkErrorCode, type CallToolResult } from '@modelcontextprotocol/client';
import { resultCheck, ToolError, withContent, type ClassType, type ExtraContent, type Logger, type ResultWithContent } from '@toolsets/core';
import { isEndedStream } from './ended-streams';
import { redact } from './secret-redaction';
import type { Reached } from './task-relay';
import { UpstreamClosed } from './upstream-connection';
import { variablePrefix } from './upstream-settings';
import type { UpstreamResult, UpstreamToolCall } from './upstream-tool-call';

/** What checking an upstream's answer needs: whose it is (the library's name), its bound, where to log, what to redact. */
export interface AnswerCheck {
  upstream: string;
  maxResultBytes: number;
  logger: Logger;
  /** The credentials the upstream was sent: never passed on. */
  secrets: Record<string, string>;
}

/** A request that did not end with an answer: what it failed with, whether its deadline passed, and what that deadline was. */
export type Failed = Extract<Reached<unknown>, { failed: unknown }>;

/** The most of an upstream's own text an error's detail or a result's message carries. */
const MAX_DETAIL = 500;
const MAX_MESSAGE = 4_000;
/** The deepest JSON an answer may nest before it is refused (validating deeper costs the server, helps no model). */
const MAX_DEPTH = 64;
/** The most problems a lenient answer's note names. */
const MAX_NOTED_PROBLEMS = 3;

/**
 * A tool's answer from the upstream, as the tool's result: bounded in size and depth before
 * anything reads it, redacted of the credentials the upstream was sent, an `isError` answer passed
 * on as a `ToolError` without checking it against the success schema, a lenient tool's misfit
 * passed on as `unchecked` with a `note`.
 */
export function answeredCall(call: UpstreamToolCall, answer: CallToolResult, check: AnswerCheck): UpstreamResult | ResultWithContent<UpstreamResult> | ToolError {
  const { logger, secrets } = check;
  const tooBig = outOfBounds(answer, check);
  if (tooBig) return tooBig;
  // The credentials the upstream was sent never reach the caller, whatever it echoes (an environment dump, a debug tool).
  answer = redactDeep(answer, secrets);
  const content = Array.isArray(answer.content) ? answer.content : [];
  const text = content.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n');
  // An error is passed on as the upstream said it, never checked against the success schema.
  if (answer.isError) return new ToolError('upstream_error', `The upstream tool ${call.tool} failed: ${bounded(text, MAX_DETAIL, secrets).replace(/\.+$/, '') || 'it gave no reason'}.`);
  const others = content.filter((block) => block.type !== 'text') as ExtraContent[];
  let result: UpstreamResult;
  if (call.output === 'structured') {
    const data = answer.structuredContent;
    if (data === undefined || data === null) {
      logger.warn('upstream answer not usable', { upstream: check.upstream, tool: call.tool, reason: 'no structuredContent although the tool declares an output schema' });
      return new ToolError('upstream_invalid_response', `The upstream tool ${call.tool} answered without the structured result its output schema promises. Try again; if it persists, the upstream MCP server is misbehaving.`);
    }
    result = { message: looksLikeJson(text) || text === '' ? `The upstream tool ${call.tool} answered.` : bounded(text, MAX_MESSAGE, secrets), data };
    if (call.lenient) result = lenient(call, call.lenient, result, check);
  } else {
    result = { message: bounded(text, MAX_MESSAGE, secrets) || `The upstream tool ${call.tool} answered${others.length ? ` with ${others.length} content block${others.length === 1 ? '' : 's'}` : ' with nothing'}.` };
  }
  return others.length ? withContent(result, ...others) : result;
}

/** A prompt's or a resource's answer, bounded and redacted as a tool's; thrown as a `ToolError` when over a bound. */
export function answeredMember<T>(answer: T, check: AnswerCheck): T {
  const tooBig = outOfBounds(answer, check);
  if (tooBig) throw tooBig;
  return redactDeep(answer, check.secrets);
}

/** An answer over the size or depth bound: refused before anything validates it. */
function outOfBounds(answer: unknown, check: AnswerCheck): ToolError | undefined {
  if (depthOver(answer, MAX_DEPTH)) return new ToolError('upstream_invalid_response', `The upstream MCP server's answer nests deeper than ${MAX_DEPTH} levels, so it was not passed on.`);
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  if (bytes <= check.maxResultBytes) return undefined;
  return new ToolError(
    'upstream_too_large',
    `The upstream MCP server's answer is ${bytes} bytes, more than the ${check.maxResultBytes} this server passes on. Ask for less, or have the operator raise ${variablePrefix(check.upstream)}_MAX_RESULT_BYTES.`,
  );
}

/** A lenient tool's answer: as it is when it fits; else passed on as `unchecked` with a `note` naming what did not fit (paths and rules, never values). */
function lenient(call: UpstreamToolCall, resultClass: ClassType, result: UpstreamResult, { upstream, logger }: AnswerCheck): UpstreamResult {
  const problems = resultCheck(resultClass)(result);
  if (problems.length === 0) return result;
  const shown = problems.slice(0, MAX_NOTED_PROBLEMS);
  logger.warn('upstream answer does not match its output schema; passed on unchecked (lenient)', { upstream, tool: call.tool, problems: shown });
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  return {
    message: `${result.message} The answer does not match the upstream tool's own output schema, so it comes as \`unchecked\` instead of \`data\`.`,
    unchecked: result.data,
    note: `Not as the upstream's output schema says: ${shown.map((problem) => problem.replace(/^\/data/, '') || '/').join('; ')}${more}.`,
  };
}

/**
 * What a request for `what` (a tool's name, `prompt x`, `resource uri`) failed with, as a ToolError
 * the caller can act on; a timeout names the deadline that passed (a task's result waits longer
 * than a call).
 */
export function failedRequest(what: string, { failed: error, timedOut, timeoutMs }: Failed, { upstream: name, logger, secrets }: Omit<AnswerCheck, 'maxResultBytes'>): ToolError {
const upstream = `the upstream MCP server of ${name}`;
const seconds = `${Math.round(timeoutMs / 100) / 10} s`;
  if (timedOut || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)) {
    return new ToolError('upstream_timeout', `${cap(upstream)} did not answer ${what} within ${seconds}. Try again later, or ask for less.`);
  }
  if (error instanceof UpstreamClosed) return new ToolError('upstream_unavailable', `${cap(upstream)} is closed: this server is shutting down.`);
  if (isEndedStream(error)) {
    logger.warn('upstream MCP call failed', { upstream: name, tool: what, reason: 'the answer stream ended without an answer' });
    return new ToolError('upstream_unavailable', `${cap(upstream)} ended its answer to ${what} without answering (it may have stopped or restarted mid-call). Try again.`);
  }
  if (error instanceof ProtocolError) {
    // The upstream refused the request itself (unknown tool, invalid arguments): its own words, bounded and redacted.
    return new ToolError('upstream_refused', `${cap(upstream)} refused ${what} (${error.code}): ${bounded(error.message, MAX_DETAIL, secrets)}`);
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof SdkError && (error.code === SdkErrorCode.InvalidResult || error.code === SdkErrorCode.UnsupportedResultType)) {
    logger.warn('upstream answer not usable', { upstream: name, tool: what, reason: redact(reason, secrets) });
    return new ToolError('upstream_invalid_response', `${cap(upstream)} answered ${what} with something that is not a valid answer. Try again; if it persists, the upstream MCP server is misbehaving.`);
  }
  const closed = error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
  if (!(error instanceof SdkError) && (error as { name?: string } | null)?.name === 'AbortError') {
    return new ToolError('cancelled', `The call to ${what} was cancelled.`);
  }
  logger.warn('upstream MCP call failed', { upstream: name, tool: what, reason: redact(reason, secrets) });
  return new ToolError(
    'upstream_unavailable',
    closed
      ? `${cap(upstream)} closed the connection during ${what} (it may have stopped); it is reconnected on the next call. Try again.`
      : `${cap(upstream)} could not be reached for ${what}. Try again later; the server log says why.`,
  );
}

/** The answer with every string in it redacted of the credentials the upstream was sent (the depth is bounded before this runs). */
function redactDeep<T>(answer: T, secrets: Record<string, string>): T {
  if (Object.keys(secrets).length === 0) return answer;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value, secrets);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return walk(answer) as T;
}

/** The upstream's text, at most `max` characters, without the credentials it was sent. */
function bounded(text: string, max: number, secrets: Record<string, string>): string {
  const clean = redact(text, secrets).trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A text block that is only the structured result again (most servers send both): not a message. */
function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** Whether `value` nests deeper than `max` levels (checked without recursion, so a hostile answer cannot overflow the stack). */
function depthOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
