import { randomUUID } from 'node:crypto';
import { MissingRequiredClientCapabilityError, type CallToolResult } from '@modelcontextprotocol/server';
import { MissingCredentialError } from '../../errors/missing-credential.error';
import { TokenExchangeError } from '../../errors/token-exchange.error';
import { UndeclaredCredentialError } from '../../errors/undeclared-credential.error';
import { UndeclaredElicitationFormError } from '../../errors/undeclared-elicitation-form.error';
import type { CompiledTool } from '../../compiled/tool-catalog';
import { isToolError } from '../../results/is-tool-error';
import { ResultWithContent, type ExtraContent } from '../../wire/tool-content';
import { contentProblems } from '../checks/content-check';
import { isCallSignal } from '../request/call-signal';
import { RequestStateRefusal } from '../request/sdk-client-input';
import { argumentProblems, describeResultErrors } from '../checks/argument-errors';
import { checkArgumentLimits, type ArgumentLimits } from '../checks/argument-limits';
import type { DroppedKeyWarner } from './dropped-key-warner';
import type { Logger } from '../logging/logger';
import { NO_REDACTION, redactValue, type Redactor } from '../logging/redaction';
import { stackField } from '../logging/error-stack';

const NO_PROBLEMS: readonly string[] = Object.freeze([]);

/** Makes the toolset instance that serves one call. */
export type ToolsetInstantiator = () => Record<string, (input: unknown) => unknown>;

/** What one call runs with: how to get its toolset, where it logs (secrets redacted), its limits. */
export interface CallScope {
  instantiate: ToolsetInstantiator;
  logger: Logger;
  limits: Readonly<ArgumentLimits>;
  /** In development: reports keys a result carries that its class does not declare. */
  warnDropped?: DroppedKeyWarner;
  /** Runs the call's interceptors around `invoke` (absent when it has none). */
  around?: (args: Record<string, unknown>, invoke: () => unknown) => Promise<unknown>;
  /** Hides the call's credential values in what it sends (absent or `NO_REDACTION` when it has none). */
  redact?: Redactor;
  /** The call's signal: a throw after it aborted is the tool stopping as asked, not a failure. */
  signal?: AbortSignal;
}

const UNEXPECTED = Symbol('toolsets.unexpectedFailure');

/**
 * The correlation id a result carries when it reports that its tool failed unexpectedly (logged
 * already, under that id): a task whose call ends with one ends `failed`, not `completed`. Kept
 * under a symbol, so it is never sent.
 */
export function unexpectedFailureOf(result: CallToolResult): string | undefined {
  return (result as { [UNEXPECTED]?: string })[UNEXPECTED];
}

/**
 * Runs one `tools/call` against a compiled tool: checks the arguments, gets a toolset instance for
 * this call, invokes the method, and turns what it returned (or threw) into a result.
 */
export async function runToolCall(tool: CompiledTool, rawArgs: unknown, scope: CallScope): Promise<CallToolResult> {
  const redact = scope.redact ?? NO_REDACTION;
  if (redact === NO_REDACTION) return runChecked(tool, rawArgs, scope, redact);
  const result = await runChecked(tool, rawArgs, scope, redact);
  // structuredContent was redacted before it was checked; the blocks beside it are redacted here.
  return { ...result, content: redactValue(result.content, redact) as CallToolResult['content'] };
}

async function runChecked(tool: CompiledTool, rawArgs: unknown, scope: CallScope, redact: Redactor): Promise<CallToolResult> {
  const args = rawArgs ?? {};
  const overLimit = checkArgumentLimits(args, scope.limits);
  if (overLimit) return invalidArguments(tool.name, [overLimit.charAt(0).toUpperCase() + overLimit.slice(1)]);
  if (!tool.inputValidator.Check(args)) {
    return invalidArguments(tool.name, argumentProblems(tool.inputValidator, args, argumentNames(tool)));
  }
  let returned: unknown;
  try {
    const input = tool.materialize ? tool.materialize(args as Record<string, unknown>) : {};
    if (tool.checkArgRules) {
      const broken = tool.checkArgRules(input);
      if (broken.length > 0) return invalidArguments(tool.name, broken.map((p) => `'${p.path.join('.')}': ${p.message}.`));
    }
    const invoke = () => scope.instantiate()[tool.methodName](input);
    returned = scope.around ? scope.around(args as Record<string, unknown>, invoke) : invoke();
    // Only a promise is awaited: a sync tool's result needs no extra turn of the microtask queue.
    if (isThenable(returned)) returned = await returned;
  } catch (error) {
    return thrownResult(tool, error, scope, redact);
  }
  if (returned instanceof ResultWithContent) return withExtraContent(tool, toResult(tool, returned.result, scope.logger, scope.warnDropped, redact), returned.content, scope.logger);
  return toResult(tool, returned, scope.logger, scope.warnDropped, redact);
}

/** Appends the blocks a tool attached after its JSON text block, once they are checked. */
function withExtraContent(tool: CompiledTool, result: CallToolResult, extra: readonly ExtraContent[], logger: Logger): CallToolResult {
  if (result.structuredContent === undefined) return result;
  const problems = contentProblems(extra);
  if (problems.length > 0) {
    const correlationId = randomUUID();
    logger.error('tool attached content that cannot be sent', { correlationId, tool: tool.name, errors: problems });
    return textError(
      `The tool '${tool.name}' attached content that cannot be sent, so its result was not sent. ` +
        `This is a server bug; the server log has the details under correlation id ${correlationId}.`,
    );
  }
  return { ...result, content: [...result.content, ...extra] };
}

/**
 * What the client sees for a thrown value. A `ToolError` is the tool's own message to the client
 * and is sent exactly like a returned one; the framework's credential errors say how to configure
 * the client; anything else is unexpected: the client gets a correlation id, the log the message.
 */
function thrownResult(tool: CompiledTool, error: unknown, scope: CallScope, redact: Redactor): CallToolResult {
  const { logger, warnDropped } = scope;
  // Not an error: the call ends with `input_required`, which the handler sends.
  // Nor is a question the client cannot be asked: the request is refused (-32021).
  if (passesThrough(error)) throw error;
  if (isToolError(error)) return toResult(tool, error, logger, warnDropped, redact);
  if (error instanceof MissingCredentialError) {
    logger.info('call without a required credential', { tool: tool.name, header: error.header });
    return textError(error.message);
  }
  if (error instanceof TokenExchangeError) {
    logger.warn('token exchange failed', { tool: tool.name, error: error.message });
    return textError(`The tool '${tool.name}' could not get a token for the API it calls on your behalf. ${error.message}`);
  }
  if (error instanceof UndeclaredCredentialError) {
    logger.error('tool read a credential its toolset does not declare', { tool: tool.name, error: error.message });
    return textError(error.message);
  }
  if (error instanceof UndeclaredElicitationFormError) {
    logger.error('tool asked for an elicitation form it does not declare', { tool: tool.name, error: error.message });
    return textError(error.message);
  }
  if (scope.signal?.aborted) {
    // Cancelled (tasks/cancel, the client went away, a deadline): a tool that stops by throwing did what it was asked.
    logger.info('tool stopped after its call was cancelled', { tool: tool.name, error: errorName(error) });
    return textError(`The call to '${tool.name}' was cancelled.`);
  }
  const correlationId = randomUUID();
  logger.error('tool threw', { correlationId, tool: tool.name, error: errorName(error), detail: errorMessage(error), ...stackField(error) });
  const failed = textError(
    `The tool '${tool.name}' failed unexpectedly. The server log has the details under correlation id ${correlationId}. ` +
      'To send the client a message, return or throw a ToolError.',
  );
  return Object.assign(failed, { [UNEXPECTED]: correlationId });
}

/**
 * Cleans the returned value down to the declared keys, hides the call's secrets in it, checks it,
 * and sends it both ways. A `ToolError` from a tool whose `returns` has none (an interceptor's
 * `rate_limited`, a tool's own throw) has no output arm to match: it is sent as text, with isError.
 */
export function toResult(tool: CompiledTool, returned: unknown, logger: Logger, warnDropped?: DroppedKeyWarner, redact: Redactor = NO_REDACTION): CallToolResult {
  const failed = isToolError(returned);
  if (failed && tool.error === undefined) return textError(redact(`${returned.error}: ${returned.detail}`));
  const arm = failed ? tool.error! : tool.ok;
  warnDropped?.(tool, arm, returned);
  const projected = arm.project(returned);
  const structuredContent = redact === NO_REDACTION ? projected : redactValue(projected, redact);
  const problems = !arm.validator.Check(structuredContent)
    ? describeResultErrors(arm.validator.Errors(structuredContent))
    : arm.checkRules
      ? arm.checkRules(structuredContent).map((p) => `/${p.path.join('/')} ${p.message}`)
      : NO_PROBLEMS;
  if (problems.length > 0) return unsendableResult(tool, arm.model.name, problems, logger);
  // No spread here: this literal is built on every call, and V8 builds a fixed one much faster.
  const text = tool.textIsMessage && !failed ? (structuredContent as { message: string }).message : JSON.stringify(structuredContent);
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent: structuredContent as Record<string, unknown> };
  if (failed) result.isError = true;
  return result;
}

/**
 * The answer when a result breaks its declared output. For a tool generated from an API document
 * (`generatedFrom`), the result is the upstream's answer: the model is told the upstream broke its
 * own document, where (paths only, never values), and that calling again will not help; the log
 * tells the operator how to take such answers (`lenient`, `fields`). Otherwise it is a server bug.
 */
function unsendableResult(tool: CompiledTool, arm: string, problems: readonly string[], logger: Logger): CallToolResult {
  const correlationId = randomUUID();
  const generatedFrom = tool.toolset.generatedFrom;
  logger.error('tool returned a result that does not match its declared output', {
    correlationId,
    tool: tool.name,
    arm,
    errors: problems,
    ...(generatedFrom && { fix: upstreamFix(generatedFrom) }),
  });
  if (!generatedFrom) {
    return textError(
      `The tool '${tool.name}' produced a result that does not match its declared output, so it was not sent. ` +
        `This is a server bug; the server log has the details under correlation id ${correlationId}.`,
    );
  }
  const paths = [...new Set(problems.map((problem) => problem.split(' ')[0]!).filter((path) => path.startsWith('/')))].slice(0, 5);
  const upstream = fromMcpServer(generatedFrom) ? "its upstream MCP server that does not match the tool's own output schema" : "its upstream API that does not match the API's own document";
  return textError(
    `The tool '${tool.name}' got an answer from ${upstream}${paths.length ? ` (at ${paths.join(', ')})` : ''}, so it was not sent; ` +
      `calling again with the same arguments will most likely get the same answer. The server log has the details under correlation id ${correlationId}.`,
  );
}

/** Whether a generated toolset stands for an upstream MCP server (`mcp.json and mcp.config.json`) rather than an API document. */
function fromMcpServer(generatedFrom: string): boolean {
  return /\bmcp\.json\b/.test(generatedFrom);
}

/** What the operator can do about an upstream answer that breaks what the library was generated from. */
function upstreamFix(generatedFrom: string): string {
  return fromMcpServer(generatedFrom)
    ? `the upstream MCP server's answer breaks its own output schema: mark the tool "lenient" in the library's mcp.config.json to pass such answers on unchecked, then run npx nx sync (the library is generated from ${generatedFrom})`
    : `the upstream API's answer breaks its own document: mark the tool "lenient" in the library's openapi.config.json to pass such answers on unchecked, or keep only the paths the tool needs with "fields", then run npx nx sync (the library is generated from ${generatedFrom})`;
}

/** What ends a call without being the tool's failure: a question for the client, a refusal of the request, the call becoming a task. */
/** What passes through a tool's call untouched: a signal that unwinds the tool, or a refusal of the request itself (not the tool's failure). */
function passesThrough(error: unknown): boolean {
  return isCallSignal(error) || error instanceof MissingRequiredClientCapabilityError || error instanceof RequestStateRefusal;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** The isError result for arguments that do not fit a tool, one problem per line. */
export function invalidArguments(tool: string, problems: readonly string[]): CallToolResult {
  return textError(`Invalid arguments for tool '${tool}':\n${problems.map((p) => `- ${p}`).join('\n')}`);
}

/** An isError result of one text block: what the client reads when there is no structured result to send. */
export function textError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function argumentNames(tool: CompiledTool): string[] {
  return Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return String(error);
  } catch {
    return typeof error;
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
