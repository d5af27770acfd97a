import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { MissingCredentialError } from '../../errors/missing-credential.error';
import { UndeclaredCredentialError } from '../../errors/undeclared-credential.error';
import type { CompiledArgs } from '../../compiled/tool-catalog';
import { isToolError } from '../../results/is-tool-error';
import { argumentProblems } from '../checks/argument-errors';
import type { Logger } from '../logging/logger';
import { stackField } from '../logging/error-stack';
import type { MemberScope } from '../request/member-scope';
import { isCallSignal } from '../request/call-signal';

/**
 * Checks a prompt's or template's arguments against their DTO and builds its instance; a bad
 * argument is the caller's mistake: Invalid Params, saying which and why.
 */
export function memberInput(args: CompiledArgs, raw: Record<string, unknown>, what: string): unknown {
  if (!args.validator.Check(raw)) {
    const declared = args.model?.fields.map((field) => field.name) ?? [];
    throw invalidParams(what, argumentProblems(args.validator, raw, declared));
  }
  const input = args.materialize ? args.materialize(raw) : {};
  const broken = args.checkRules?.(input) ?? [];
  if (broken.length > 0) throw invalidParams(what, broken.map((p) => `'${p.path.join('.')}': ${p.message}.`));
  return input;
}

/** Calls a toolset member for one request. What it throws reaches the client as a JSON-RPC error. */
export async function invokeMember(scope: MemberScope, methodName: string, input: unknown, what: string): Promise<unknown> {
  try {
    return await scope.instantiate()[methodName](input);
  } catch (error) {
    // Not an error: the member asked the client a question (a 2026-07-28 round trip), or its call became a task.
    if (isCallSignal(error)) throw error;
    const refusal = memberError(error, scope.logger, what);
    refusal.message = scope.redact(refusal.message);
    throw refusal;
  }
}

/** A member's own output that cannot be sent: a server bug, logged under a correlation id. */
export function unsendable(logger: Logger, what: string, problems: readonly string[]): ProtocolError {
  const correlationId = randomUUID();
  logger.error(`${what} produced output that cannot be sent`, { correlationId, errors: problems });
  return new ProtocolError(ProtocolErrorCode.InternalError, `The ${what} produced output that cannot be sent. This is a server bug; the server log has the details under correlation id ${correlationId}.`);
}

function memberError(error: unknown, logger: Logger, what: string): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (isToolError(error)) return new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.error}: ${error.detail}`);
  if (error instanceof MissingCredentialError || error instanceof UndeclaredCredentialError) return new ProtocolError(ProtocolErrorCode.InvalidRequest, error.message);
  const correlationId = randomUUID();
  logger.error(`${what} threw`, { correlationId, error: error instanceof Error ? error.name : typeof error, detail: error instanceof Error ? error.message : String(error), ...stackField(error) });
  return new ProtocolError(ProtocolErrorCode.InternalError, `The ${what} failed unexpectedly. The server log has the details under correlation id ${correlationId}.`);
}

function invalidParams(what: string, problems: readonly string[]): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for ${what}:\n${problems.map((p) => `- ${p}`).join('\n')}`);
}
