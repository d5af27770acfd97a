import { UriTemplate, type Prompt, type Resource, type ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/server';
import type { ContractViolation, ViolationSite } from '../errors/contract-violation';
import { InvalidArgsError } from '../errors/invalid-args.error';
import { InvalidMemberNameError } from '../errors/invalid-member-name.error';
import { InvalidResourceUriError } from '../errors/invalid-resource-uri.error';
import { InvalidUriTemplateError } from '../errors/invalid-uri-template.error';
import { MisplacedViewError } from '../errors/misplaced-view.error';
import { MissingMemberDescriptionError } from '../errors/missing-member-description.error';
import { PromptArgumentTypeError } from '../errors/prompt-argument-type.error';
import { NO_ARGS_SCHEMA } from '../helpers/json-schema';
import { TOOL_NAME_PATTERN, toolNameOf } from '../helpers/naming';
import type { Completer } from '../metadata/completer-metadata';
import { metadataStorage } from '../metadata/metadata-storage';
import type { ResourceMetadata } from '../metadata/resource-metadata';
import type { ClassModelBuilder } from '../schema/class-model-builder';
import { emitClass } from '../schema/schema-emitter';
import type { ClassModel, TypeModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';
import { compileMaterializer } from '../compiled/args-materializer';
import { compileElicitationForms } from '../compiled/elicitation-form';
import { lazyValidator } from '../compiled/lazy-validator';
import { groupMeta } from '../wire/grouping';
import { compileRuleCheck } from '../compiled/rule-check';
import type { CompiledArgs, CompiledToolset } from '../compiled/tool-catalog';

const NO_ARGS: CompiledArgs = { validator: lazyValidator(NO_ARGS_SCHEMA as never), completers: new Map() };
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The gate's part for prompts, resources and resource templates: checks each, compiles what serving needs. */
export class MemberInspector {
  constructor(
    private readonly violations: ContractViolation[],
    private readonly models: ClassModelBuilder,
  ) {}

  inspectPrompts(toolset: CompiledToolset): void {
    for (const prompt of metadataStorage.getPrompts(toolset.cls)) {
      const { options } = prompt;
      const name = options.name ?? toolNameOf(prompt.methodName);
      const site: ViolationSite = { toolset: toolset.name, prompt: name };
      const before = this.violations.length;
      if (!TOOL_NAME_PATTERN.test(name)) this.violations.push(new InvalidMemberNameError(site, '@Prompt', name));
      if (!hasText(options.description)) this.violations.push(new MissingMemberDescriptionError(site, '@Prompt'));
      this.checkNoView(site, options, `@Prompt on ${toolset.cls.name}.${prompt.methodName}()`);
      const args = this.compileArgs(site, options.args, '@Prompt');
      const elicitationForms = compileElicitationForms(options.elicits, site, this.models, (violation) => this.violations.push(violation));
      if (this.violations.length > before || !args) continue;
      const descriptor: Prompt = {
        name,
        ...(options.title !== undefined && { title: options.title }),
        description: options.description,
        ...(args.model && {
          arguments: args.model.fields.map((field) => ({
            name: field.name,
            ...(field.description !== undefined && { description: field.description }),
            required: !field.optional,
          })),
        }),
        _meta: groupMeta(toolset.name),
      };
      toolset.prompts.push({ name, toolset, methodName: prompt.methodName, descriptor, args, ...(elicitationForms.size > 0 && { elicitationForms }) });
    }
  }

  inspectResources(toolset: CompiledToolset): void {
    for (const resource of metadataStorage.getResources(toolset.cls)) {
      const declared = resource.kind === 'resource' ? resource.options.uri : resource.options.uriTemplate;
      const where = `${resource.kind === 'resource' ? '@Resource' : '@ResourceTemplate'} on ${toolset.cls.name}.${resource.methodName}()`;
      const site: ViolationSite = { toolset: toolset.name, resource: String(declared) };
      this.checkNoView(site, resource.options, where);
      if (typeof declared === 'string' && /^ui:/i.test(declared)) {
        this.violations.push(new MisplacedViewError(site, where, 'resource'));
        continue;
      }
      if (resource.kind === 'resource') this.inspectResource(toolset, resource);
      else this.inspectTemplate(toolset, resource);
    }
  }

  private inspectResource(toolset: CompiledToolset, resource: ResourceMetadata): void {
    const { options } = resource;
    const site: ViolationSite = { toolset: toolset.name, resource: String(options.uri) };
    const before = this.violations.length;
    const uri = options.uri;
    if (typeof uri !== 'string' || !SCHEME.test(uri)) this.violations.push(new InvalidResourceUriError(site, uri, 'has no scheme'));
    else if (!URL.canParse(uri)) this.violations.push(new InvalidResourceUriError(site, uri, 'is not a URI'));
    const name = this.memberName(site, resource, '@Resource');
    if (this.violations.length > before) return;
    const descriptor: Resource = { uri: uri!, name, ...describe(options), _meta: groupMeta(toolset.name) };
    toolset.resources.push({ uri: uri!, toolset, methodName: resource.methodName, descriptor });
  }

  private inspectTemplate(toolset: CompiledToolset, resource: ResourceMetadata): void {
    const { options } = resource;
    const template = options.uriTemplate;
    const site: ViolationSite = { toolset: toolset.name, resource: String(template) };
    const before = this.violations.length;
    const name = this.memberName(site, resource, '@ResourceTemplate');
    const matcher = this.parseTemplate(site, template);
    const args = this.compileArgs(site, options.args, '@ResourceTemplate');
    if (matcher && args) this.checkTemplateFields(site, template!, matcher, args);
    if (this.violations.length > before || !matcher || !args) return;
    const descriptor: ResourceTemplate = { uriTemplate: template!, name, ...describe(options), _meta: groupMeta(toolset.name) };
    toolset.templates.push({ toolset, methodName: resource.methodName, descriptor, matcher, args });
  }

  /** Only tools have views: a `view` option anywhere else would silently do nothing. */
  private checkNoView(site: ViolationSite, options: object, where: string): void {
    if ('view' in options && (options as { view?: unknown }).view !== undefined) this.violations.push(new MisplacedViewError(site, where, 'option'));
  }

  /** The template's matcher, or undefined with the violation reported. */
  private parseTemplate(site: ViolationSite, template: unknown): UriTemplate | undefined {
    try {
      if (typeof template !== 'string' || !SCHEME.test(template)) throw new Error('has no scheme');
      const matcher = new UriTemplate(template);
      if (matcher.variableNames.length === 0) throw new Error('has no variables');
      return matcher;
    } catch (error) {
      const reason = (error as Error).message;
      const fix = reason === 'has no variables' ? 'declare a fixed URI with @Resource, or add a variable: `users://{id}/profile`.' : 'write an RFC 6570 template with a scheme: `users://{id}/profile`.';
      this.violations.push(new InvalidUriTemplateError(site, template as string, reason.startsWith('has ') ? reason : `cannot be parsed (${reason})`, fix));
      return undefined;
    }
  }

  /** Every template variable is a field of the args class, and every required field a variable. */
  private checkTemplateFields(site: ViolationSite, template: string, matcher: UriTemplate, args: CompiledArgs): void {
    const fields = args.model?.fields ?? [];
    const missing = matcher.variableNames.filter((variable) => !fields.some((field) => field.name === variable));
    const unfilled = fields.filter((field) => !field.optional && !matcher.variableNames.includes(field.name)).map((field) => field.name);
    if (missing.length) {
      this.violations.push(
        new InvalidUriTemplateError(site, template, `has variables ${missing.map((v) => `'${v}'`).join(', ')} that ${args.model ? `'${args.model.name}' does not declare` : 'no args DTO declares'}`, `declare each variable as a string @Field of the template's \`args\` class.`),
      );
    }
    if (unfilled.length) {
      this.violations.push(
        new InvalidUriTemplateError(site, template, `never fills the required field(s) ${unfilled.map((v) => `'${v}'`).join(', ')} of '${args.model!.name}'`, 'add them to the template as variables, or make them optional.'),
      );
    }
  }

  private memberName(site: ViolationSite, resource: ResourceMetadata, decorator: '@Resource' | '@ResourceTemplate'): string {
    const name = resource.options.name ?? toolNameOf(resource.methodName);
    if (!TOOL_NAME_PATTERN.test(name)) this.violations.push(new InvalidMemberNameError(site, decorator, name));
    if (!hasText(resource.options.description)) this.violations.push(new MissingMemberDescriptionError(site, decorator));
    return name;
  }

  /** Prompt and template arguments arrive as strings: each field must be a string or an enum of strings. */
  private compileArgs(site: ViolationSite, args: unknown, decorator: '@Prompt' | '@ResourceTemplate'): CompiledArgs | undefined {
    if (args === undefined) return NO_ARGS;
    if (typeof args !== 'function' || args.prototype === undefined) {
      this.violations.push(new InvalidArgsError(site, String(args)));
      return undefined;
    }
    const cls = args as ClassType;
    const model = this.models.build(cls, { ...site, path: cls.name }, 'args');
    if (!model) return undefined;
    const before = this.violations.length;
    for (const field of model.fields) {
      if (!isStringType(field.type) || field.nullable) this.violations.push(new PromptArgumentTypeError(site, cls.name, field.name, describeType(field.type, field.nullable), decorator));
    }
    if (this.violations.length > before) return undefined;
    return {
      model,
      validator: lazyValidator(emitClass(model, 'input')),
      materialize: compileMaterializer(model),
      checkRules: compileRuleCheck(model),
      completers: completersOf(model),
    };
  }
}

function completersOf(model: ClassModel): Map<string, Completer> {
  const completers = new Map<string, Completer>();
  for (const field of model.fields) {
    const completer = metadataStorage.getCompleter(model.cls, field.name);
    if (completer) completers.set(field.name, completer.complete);
  }
  return completers;
}

function isStringType(type: TypeModel): boolean {
  return type.kind === 'string' || (type.kind === 'enum' && type.values.every((value) => typeof value === 'string'));
}

function describeType(type: TypeModel, nullable?: boolean): string {
  const kind = type.kind === 'enum' ? 'an enum with non-string values' : type.kind === 'object' ? `an object (${type.model.name})` : `${/^[aeiou]/.test(type.kind) ? 'an' : 'a'} ${type.kind}`;
  return nullable ? `${kind} or null` : kind;
}

function describe(options: ResourceMetadata['options']): { title?: string; description: string; mimeType?: string } {
  return {
    ...(options.title !== undefined && { title: options.title }),
    description: options.description!,
    ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
  };
}

function hasText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
