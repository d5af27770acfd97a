import type { ToolCatalog } from '../compiled/tool-catalog';
import { ServerOptionError } from '../errors/server-option.error';
import { secretFormFields } from '../gate/secret-form-fields';
import type { BuildServerOptions } from './build-server-options';
import type { Logger } from './logging/logger';
import { REQUEST_STATE_KEY_VARIABLE, requestStateSeal, type RequestStateSeal } from './request/request-state';
import { cardOptionProblem } from './server-card-options';

/* What buildServer checks of its options before it builds anything, and what it warns of in the catalog: each refusal names the option and its fix. */

/** The seal of the server's `requestState`: its option, else `MCP_REQUEST_STATE_KEY`, else a key of this process. */
export function sealOf(options: BuildServerOptions): RequestStateSeal {
  const key = options.requestStateKey ?? (process.env[REQUEST_STATE_KEY_VARIABLE] || undefined);
  const seal = requestStateSeal(key);
  if (typeof seal === 'string') {
    const option = options.requestStateKey !== undefined ? 'requestStateKey' : REQUEST_STATE_KEY_VARIABLE;
    throw new ServerOptionError(options.name, option, seal, 'give every replica the same random key of 32 bytes or more; it seals the state of multi round-trip calls, so keep it secret.');
  }
  return seal;
}

export function checkServingOptions(options: BuildServerOptions): void {
  if (options.mode === 'code' && options.codeMode === undefined) {
    throw new ServerOptionError(options.name, 'mode', "is 'code' without codeMode", "pass codeMode: codeMode() from '@toolsets/code-mode' beside it, or use 'tools' or 'discovery'.");
  }
  if (options.mode !== undefined && options.mode !== 'tools' && options.mode !== 'discovery' && options.mode !== 'code') {
    throw new ServerOptionError(options.name, 'mode', `is ${JSON.stringify(options.mode)}`, "use 'tools' (every tool listed), 'discovery' (search_tools, browse_tools, describe_tools, call_tool) or 'code' (with codeMode).");
  }
  checkListTtl(options);
  const cardProblem = options.card ? cardOptionProblem(options.card) : undefined;
  if (cardProblem) throw new ServerOptionError(options.name, ...cardProblem);
  const budget = options.listBudgetTokens;
  if (budget !== undefined && !(Number.isSafeInteger(budget) && budget > 0)) {
    throw new ServerOptionError(options.name, 'listBudgetTokens', `is ${JSON.stringify(budget)}`, 'give a positive whole number of tokens (bytes ÷ 4), such as 50000.');
  }
}

function checkListTtl(options: BuildServerOptions): void {
  const ttl = listTtlOf(options);
  if (Number.isSafeInteger(ttl) && ttl >= 0) return;
  const option = options.listTtlMs !== undefined ? 'listTtlMs' : 'LIST_TTL_MS';
  throw new ServerOptionError(options.name, option, `is ${JSON.stringify(options.listTtlMs ?? process.env['LIST_TTL_MS'])}`, 'give a whole number of milliseconds, 0 or more, such as 300000 for five minutes.');
}

/** `listTtlMs`, else LIST_TTL_MS, else 0. */
export function listTtlOf(options: BuildServerOptions): number {
  const text = process.env['LIST_TTL_MS']?.trim();
  return options.listTtlMs ?? (text ? Number(text) : 0);
}

/** A form field that asks for a credential: its answer would pass through the client, which the revision forbids. */
export function warnSecretFormFields(catalog: ToolCatalog, logger: Logger): void {
  for (const { member, form, field } of secretFormFields(catalog)) {
    logger.warn(
      `${member} asks for '${field}' of '${form}' in an elicitation form, and it looks like a credential: a form's answer passes through the client and may reach the model. ` +
        'Send the user to a page of yours with context.elicitUrl(url, message) instead (URL-mode elicitation), and keep the secret on the server.',
    );
  }
}

/**
 * Entries over their toolset's `schemaBudget` are those whose arguments alone do not fit: input
 * schemas are never cut (a model must see every argument it can send), so the budget is the user's to raise.
 */
export function warnOverSchemaBudget(catalog: ToolCatalog, logger: Logger): void {
  const over = [...catalog.tools.values()].filter((tool) => tool.overSchemaBudget);
  if (over.length === 0) return;
  logger.warn(
    `${over.length} tool(s) advertised over their toolset's schemaBudget, because their arguments alone need more (input schemas are never cut): ` +
      `${over.map((tool) => `${tool.name} (${tool.overSchemaBudget!.bytes} bytes, budget ${tool.overSchemaBudget!.budget})`).join(', ')}. ` +
      'Raise @Toolset({ schemaBudget }) (schemaBudget in openapi.config.json for a generated toolset) to at least the largest, or leave the tools out.',
  );
}
