import type { Tool } from '@modelcontextprotocol/server';
import type { SchemaNode } from '../types/schema-node';
import { compileMaterializer, passThrough } from '../compiled/args-materializer';
import { compileDroppedKeysFinder } from '../compiled/dropped-keys';
import { compileElicitationForms } from '../compiled/elicitation-form';
import { lazyValidator } from '../compiled/lazy-validator';
import { groupMeta } from '../wire/grouping';
import { compileClassProjector } from '../compiled/result-projector';
import { compileRuleCheck } from '../compiled/rule-check';
import type { CompiledTool, CompiledToolset, OutputArm } from '../compiled/tool-catalog';
import type { ContractViolation, ViolationSite } from '../errors/contract-violation';
import { CredentialArgumentError } from '../errors/credential-argument.error';
import { InvalidArgsError } from '../errors/invalid-args.error';
import { InvalidInputSchemaError } from '../errors/invalid-input-schema.error';
import { InvalidKeywordsError } from '../errors/invalid-keywords.error';
import { InvalidOriginError } from '../errors/invalid-origin.error';
import { InvalidMessageFieldError } from '../errors/invalid-message-field.error';
import { InvalidPatternError } from '../errors/invalid-pattern.error';
import { InvalidReturnsUnionError } from '../errors/invalid-returns-union.error';
import { InvalidScopeError } from '../errors/invalid-scope.error';
import { InvalidIconError } from '../errors/invalid-icon.error';
import { iconDetailProblem, iconSrcProblem, showableIcon } from '../helpers/icon-rules';
import { InvalidTextBlockError } from '../errors/invalid-text-block.error';
import { InvalidParamHeaderError } from '../errors/invalid-param-header.error';
import { paramHeadersOf, type ParamHeader } from '../compiled/param-headers';
import { InvalidToolNameError } from '../errors/invalid-tool-name.error';
import { MissingDescriptionError } from '../errors/missing-description.error';
import { MissingReturnsError } from '../errors/missing-returns.error';
import { ResultNotToolResultError } from '../errors/result-not-tool-result.error';
import { ReturnsNotAClassError } from '../errors/returns-not-a-class.error';
import { describeNonClass, nameOf } from '../helpers/describe-value';
import { resolvePointer } from '../helpers/json-pointer';
import { NO_ARGS_SCHEMA, refsOf, toWire } from '../helpers/json-schema';
import { sameIdentifier, TOOL_NAME_PATTERN, toolNameOf } from '../helpers/naming';
import { isScopeToken, sortedScopes } from '../helpers/scopes';
import { metadataStorage } from '../metadata/metadata-storage';
import type { InterceptorClass } from '../metadata/tool-interceptor';
import type { ToolIcon, ToolMetadata } from '../metadata/tool-metadata';
import { ToolError } from '../results/tool-error';
import { ToolResult } from '../results/tool-result';
import type { ClassModelBuilder } from '../schema/class-model-builder';
import { emitClass } from '../schema/schema-emitter';
import type { ClassModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';
import { checkedInterceptors } from './interceptor-check';
import { advertisedSchemas, descriptorOf, outputSchemaOf } from './tool-descriptor';
import { compileTaskOptions } from './task-options';
import { ViewInspector } from './view-check';
import { TaskOptionError } from '../errors/task-option.error';
import type { CompiledTaskOptions } from '../metadata/tool-task';
import { invalidPatterns, ModelPatternCheck } from './pattern-check';

/**
 * The gate's checks of one tool: its name and description, what it returns, its arguments (a DTO
 * or a raw JSON Schema), its elicitation forms, scopes and interceptors; and what each call needs,
 * compiled once. What is wrong is reported to the shared list, in the order it was found.
 */
export class ToolInspector {
  /** Compiled output arms by result model: every `[X, ToolError]` tool shares the ToolError arm. */
  private readonly arms = new Map<ClassModel, OutputArm>();
  /** Output classes' patterns, each class checked once however many tools return it. */
  private readonly patterns = new ModelPatternCheck();

  constructor(
    private readonly violations: ContractViolation[],
    private readonly models: ClassModelBuilder,
    private readonly views: ViewInspector,
  ) {}

  inspectTool(toolset: CompiledToolset, tool: ToolMetadata): CompiledTool | undefined {
    const { options } = tool;
    const name = options.name ?? toolNameOf(tool.methodName);
    const site: ViolationSite = { toolset: toolset.name, tool: name };
    const before = this.violations.length;

    this.checkNaming(site, name, options.description, options.keywords);
    const arms = this.inspectReturns(site, tool);
    const args = this.inspectArgs(site, toolset, options.args);
    const rawInput = options.inputSchema === undefined ? undefined : this.inspectRawInputSchema(site, options.inputSchema, options.args !== undefined);
    const elicitationForms = compileElicitationForms(options.elicits, site, this.models, (violation) => this.report(violation));
    const text = this.textBlock(site, options.text);
    const icons = this.checkedIcons(site, options.icons);
    const ownScopes = this.checkedScopes(site, `${tool.target.name}.${tool.methodName}()`, metadataStorage.getScopes(toolset.cls, tool.methodName));
    const ownInterceptors = this.interceptorsOf(site, `@UseInterceptors on ${tool.target.name}.${tool.methodName}()`, toolset.cls, tool.methodName);
    const task = this.taskOptions(site, options.task);
    const view = this.views.inspect(site, options.view);
    if (this.violations.length > before || !arms || args === null) return undefined;

    const inputSchema = rawInput ?? (args ? emitClass(args, 'input') : (NO_ARGS_SCHEMA as SchemaNode));
    const ok = this.outputArm(arms.ok);
    const error = arms.error && this.outputArm(arms.error);
    this.checkPatterns(site, inputSchema, arms);
    const headers = this.paramHeaders(site, inputSchema);
    if (this.violations.length > before) return undefined;
    // The grouping extension's membership is part of the entry, so the schema budget counts it.
    const listed = { name, ...optional('title', options.title), description: options.description, ...optional('annotations', options.annotations), ...optional('icons', icons), _meta: groupMeta(toolset.name) };
    const advertised = advertisedSchemas(listed, inputSchema, arms.ok, ok, error, toolset.schemaBudget);
    // `execution.taskSupport` is the 2025-11-25 revision's declaration; the 2026-07-28 wire leaves it out.
    const descriptor = descriptorOf(listed, advertised, task, view);
    let inFull: Tool['outputSchema'] | undefined;
    const outputSchemaInFull = toolset.schemaBudget === undefined ? () => descriptor.outputSchema : () => (inFull ??= toWire<NonNullable<Tool["outputSchema"]>>(outputSchemaOf(arms.ok, ok.schema(), error?.schema()) as object));
    return {
      name,
      toolset,
      methodName: tool.methodName,
      origin: this.originOf(site, toolset, tool),
      requiredScopes: sortedScopes([...toolset.requiredScopes, ...ownScopes]),
      interceptors: [...toolset.interceptors, ...ownInterceptors],
      descriptor,
      outputSchemaInFull,
      keywords: checkedKeywords(options.keywords),
      inputSchema,
      inputValidator: lazyValidator(inputSchema),
      materialize: args ? compileMaterializer(args) : rawInput ? passThrough : undefined,
      checkArgRules: args ? compileRuleCheck(args) : undefined,
      ok,
      error,
      ...(elicitationForms.size > 0 && { elicitationForms }),
      ...text,
      ...headers,
      ...optional('overSchemaBudget', advertised.overSchemaBudget),
      ...optional('task', task),
      ...optional('view', view),
    };
  }

  /** `@Tool({ icons })` checked: each an https or `data:` image with well-formed sizes and theme; a copy, so the listing never shares the decorator's array. */
  private checkedIcons(site: ViolationSite, icons: unknown): ToolIcon[] | undefined {
    if (icons === undefined) return undefined;
    if (!Array.isArray(icons)) return void this.report(new InvalidIconError(site, `is ${JSON.stringify(icons) ?? typeof icons}, not a list`));
    const problem = icons.map((icon, index) => iconProblem(icon, index)).find((found) => found !== undefined);
    if (problem) return void this.report(new InvalidIconError(site, problem));
    return (icons as ToolIcon[]).map((icon) => showableIcon(icon)!);
  }

  /** `@Tool({ text })` checked: what the result's text block carries. */
  private textBlock(site: ViolationSite, text: unknown): { textIsMessage?: true } {
    if (text !== undefined && text !== 'json' && text !== 'message') this.report(new InvalidTextBlockError(site, text));
    return text === 'message' ? { textIsMessage: true } : {};
  }

  /** The arguments the input schema mirrors into headers (`x-mcp-header`), checked as clients check them. */
  private paramHeaders(site: ViolationSite, inputSchema: object): { paramHeaders?: readonly ParamHeader[] } {
    const headers = paramHeadersOf(inputSchema);
    if (typeof headers === 'string') {
      this.report(new InvalidParamHeaderError(site, headers));
      return {};
    }
    return headers.length > 0 ? { paramHeaders: headers } : {};
  }

  /** `@Tool({ task })` checked and compiled; undefined for a tool that never runs as a task (or one reported). */
  private taskOptions(site: ViolationSite, declared: unknown): CompiledTaskOptions | undefined {
    if (declared === undefined) return undefined;
    const compiled = compileTaskOptions(site, declared);
    if (compiled instanceof TaskOptionError) {
      this.report(compiled);
      return undefined;
    }
    return compiled;
  }

  /** Every `pattern` a validator will compile, in the arguments' schema and in the result classes. */
  private checkPatterns(site: ViolationSite, inputSchema: unknown, arms: { ok: ClassModel; error?: ClassModel }): void {
    const outputPatterns = [arms.ok, ...(arms.error ? [arms.error] : [])].flatMap((model) => this.patterns.invalidIn(model));
    for (const bad of [...invalidPatterns(inputSchema, '/inputSchema'), ...outputPatterns]) {
      this.report(new InvalidPatternError(site, bad.pattern, bad.path, bad.reason));
    }
  }

  /** `@RequireScopes` values, sorted and once each; a value no token can carry is reported. */
  checkedScopes(site: ViolationSite, where: string, scopes: readonly unknown[]): string[] {
    const valid: string[] = [];
    for (const scope of scopes) {
      if (isScopeToken(scope)) valid.push(scope);
      else this.report(new InvalidScopeError(site, where, scope));
    }
    return sortedScopes(valid);
  }

  /** `@UseInterceptors` on `cls` as a whole, or on one method, checked. */
  interceptorsOf(site: ViolationSite, where: string, cls: ClassType, methodName?: string): InterceptorClass[] {
    return checkedInterceptors(metadataStorage.getInterceptors(cls, methodName), site, where, (violation) => this.report(violation));
  }

  /** `@Tool({ origin })` checked, or `<Toolset class>.<method>`: what the contract pairs a renamed tool by. */
  private originOf(site: ViolationSite, toolset: CompiledToolset, tool: ToolMetadata): string {
    const { origin } = tool.options;
    if (origin === undefined) return `${toolset.cls.name}.${tool.methodName}`;
    if (InvalidOriginError.isValid(origin)) return origin;
    this.report(new InvalidOriginError(site, origin));
    return `${toolset.cls.name}.${tool.methodName}`;
  }

  /** A tool's name follows MCP's pattern, its description says something, and its keywords are words. */
  private checkNaming(site: ViolationSite, name: string, description: unknown, keywords: unknown): void {
    if (!TOOL_NAME_PATTERN.test(name)) this.report(new InvalidToolNameError(site, name));
    if (typeof description !== 'string' || description.trim() === '') this.report(new MissingDescriptionError(site));
    const keywordProblem = keywords === undefined ? undefined : InvalidKeywordsError.problemWith(keywords);
    if (keywordProblem) this.report(new InvalidKeywordsError(site, keywordProblem));
  }

  /** Resolves `returns` into its result arm and optional ToolError arm, reporting what is wrong. */
  private inspectReturns(site: ViolationSite, tool: ToolMetadata): { ok: ClassModel; error?: ClassModel } | undefined {
    const { returns } = tool.options;
    if (returns === undefined || returns === null) {
      this.report(new MissingReturnsError(site, tool.methodName, tool.target.name));
      return undefined;
    }
    if (Array.isArray(returns)) {
      const [ok, error] = returns as unknown[];
      const valid = returns.length === 2 && isClass(ok) && isClass(error) && extendsClass(error, ToolError) && !extendsClass(ok, ToolError);
      if (!valid) {
        this.report(new InvalidReturnsUnionError(site, returns.map(nameOf).join(', ')));
        return undefined;
      }
      const okModel = this.inspectResultArm(site, ok);
      const errorModel = this.models.build(error, site);
      return okModel && errorModel ? { ok: okModel, error: errorModel } : undefined;
    }
    if (!isClass(returns)) {
      this.report(new ReturnsNotAClassError(site, describeNonClass(returns)));
      return undefined;
    }
    const ok = this.inspectResultArm(site, returns);
    return ok && { ok };
  }

  private inspectResultArm(site: ViolationSite, cls: ClassType): ClassModel | undefined {
    const armSite = { ...site, path: cls.name };
    const model = this.models.build(cls, armSite);
    // One cause, one violation: a class outside ToolResult also lacks its `message`.
    if (!extendsClass(cls, ToolResult)) {
      this.report(new ResultNotToolResultError(armSite, cls.name));
      return undefined;
    }
    if (!model) return undefined;
    const message = model.fields.find((field) => field.name === 'message');
    const problem = !message ? 'missing' : message.optional ? 'optional' : message.type.kind !== 'string' ? 'not-string' : undefined;
    if (problem) {
      this.report(new InvalidMessageFieldError({ ...site, path: `${cls.name}.message` }, cls.name, problem));
      return undefined;
    }
    return model;
  }

  /** The args model, undefined for a tool without args, null when the args are broken. */
  private inspectArgs(site: ViolationSite, toolset: CompiledToolset, args: unknown): ClassModel | undefined | null {
    if (args === undefined) return undefined;
    if (!isClass(args)) {
      this.report(new InvalidArgsError(site, nameOf(args)));
      return null;
    }
    const model = this.models.build(args, { ...site, path: args.name }, 'args');
    if (!model) return null;
    for (const field of model.fields) {
      const header = toolset.credentialHeaders.find((h) => sameIdentifier(h, field.name));
      if (header) this.report(new CredentialArgumentError({ ...site, path: `${args.name}.${field.name}` }, args.name, field.name, header));
    }
    return model;
  }

  /**
   * A tool's arguments given as a raw JSON Schema (2020-12) instead of a DTO: advertised exactly as
   * written, object-rooted, every `$ref` inside it, compiled at startup.
   */
  private inspectRawInputSchema(site: ViolationSite, schema: unknown, alsoArgs: boolean): SchemaNode | undefined {
    const before = this.violations.length;
    if (alsoArgs) this.report(new InvalidInputSchemaError(site, 'is given together with `args`; a tool takes one or the other'));
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') {
      this.report(new InvalidInputSchemaError(site, 'is not rooted in an object (`type: "object"`): tool arguments are a JSON object'));
      return undefined;
    }
    for (const ref of refsOf(schema)) {
      if (!ref.startsWith('#') || resolvePointer(schema, ref.slice(1), true) === undefined) this.report(new InvalidInputSchemaError(site, `has a $ref ${JSON.stringify(ref)} that does not resolve inside it`));
    }
    if (this.violations.length > before) return undefined;
    const wire = toWire<SchemaNode>(schema);
    try {
      lazyValidator(wire).Check({});
    } catch (error) {
      this.report(new InvalidInputSchemaError(site, `does not compile: ${(error as Error).message}`));
      return undefined;
    }
    return wire;
  }

  private report(violation: ContractViolation): void {
    this.violations.push(violation);
  }

  /** Compiled once per result class: every `[X, ToolError]` tool shares the ToolError arm. */
  private outputArm(model: ClassModel): OutputArm {
    let arm = this.arms.get(model);
    if (!arm) {
      // The whole schema is emitted when first needed: a budgeted catalog advertises cut schemas,
      // written only as deep as they are advertised, and validates on a tool's first call.
      let schema: SchemaNode | undefined;
      const full = () => (schema ??= emitClass(model, 'output'));
      arm = {
        model,
        schema: full,
        project: compileClassProjector(model),
        validator: lazyValidator(full),
        checkRules: compileRuleCheck(model),
        droppedKeys: compileDroppedKeysFinder(model),
      };
      this.arms.set(model, arm);
    }
    return arm;
  }
}

/** `{ [key]: value }` when the value is set, else nothing to spread. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

function isClass(value: unknown): value is ClassType {
  return typeof value === 'function' && value.prototype !== undefined;
}

function extendsClass(cls: ClassType, base: ClassType): boolean {
  return cls === base || cls.prototype instanceof base;
}

/** `@Tool({ keywords })` once checked (checkNaming reported anything else): the words, or none. */
function checkedKeywords(keywords: unknown): readonly string[] {
  return Array.isArray(keywords) ? (keywords as string[]) : [];
}

/** What makes `icon` (the `index`th) one a client cannot show or should not fetch, if anything. */
function iconProblem(icon: unknown, index: number): string | undefined {
  const at = `icon ${index + 1}`;
  if (typeof icon !== 'object' || icon === null || Array.isArray(icon)) return `has ${at} that is not an object`;
  const { src, mimeType, sizes, theme, ...rest } = icon as Record<string, unknown>;
  const problem = iconSrcProblem(src) ?? iconDetailProblem(mimeType, sizes, theme) ?? (Object.keys(rest).length > 0 ? `with ${Object.keys(rest).map((key) => `'${key}'`).join(', ')}, which icons do not have` : undefined);
  return problem && `has ${at} ${problem}`;
}
