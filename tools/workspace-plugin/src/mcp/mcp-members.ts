import { names } from '@nx/devkit';
import { UriTemplate, type Prompt, type Resource, type ResourceTemplateType } from '@modelcontextprotocol/client';
import { tsKey, tsLiteral } from '@toolsets/core/ts-literal';
import { pascal } from '../openapi/convert-schema';
import { className, type DtoEmitter } from '../openapi/emit-dtos';
import { plainText } from '../openapi/plain-text';
import type { PropertyModel } from '../openapi/schema-model';
import type { McpConfig } from './mcp-config';
import type { UpstreamSnapshot } from './upstream-snapshot';

/** What the upstream's prompts, resources and templates add to the generated toolset. */
export interface GeneratedMembers {
  methods: string[];
  /** The argument classes written for them (in dtos.ts). */
  classNames: string[];
  /** The core decorators and types the methods use. */
  uses: Set<'Prompt' | 'Resource' | 'ResourceTemplate'>;
  /** Some argument asks the upstream for completions (`@Complete` in dtos.ts, `completeUpstream` on the toolset). */
  completes: boolean;
  /** The resource URIs and templates served, which a caller may subscribe to (`UpstreamSettings.watchable`). */
  watchable: { uris: string[]; uriTemplates: string[] };
}

/** Prompt, resource and template names core serves: 1 to 128 of A-Z a-z 0-9 _ - . */
const MEMBER_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The upstream's prompts, resources and resource templates, served by the generated toolset beside
 * its tools (unless `"prompts": false` or `"resources": false` leaves them out): each a `@Prompt`,
 * `@Resource` or `@ResourceTemplate` whose method asks the upstream (`prompts/get`,
 * `resources/read`), its arguments a class of string fields. A name clients refuse is served under a
 * safe one, the upstream's own kept as its title.
 */
export function memberSources(snapshot: UpstreamSnapshot, config: McpConfig, emitter: DtoEmitter, usedMethods: Set<string>, warnings: string[]): GeneratedMembers {
  const out: GeneratedMembers = { methods: [], classNames: [], uses: new Set(), completes: false, watchable: { uris: [], uriTemplates: [] } };
  /** An argument's `@Complete`, where the upstream completes arguments: it asks the upstream as the user types. */
  const completing = (ref: string, properties: PropertyModel[]): PropertyModel[] => {
    if (!snapshot.completions || properties.length === 0) return properties;
    out.completes = true;
    return properties.map((property) => ({
      ...property,
      decorators: [`@Complete<UpstreamCompleting>((value, { arguments: args, toolset }) => toolset.completeUpstream(${ref}, ${tsLiteral(property.name)}, value, args))`],
    }));
  };
  const method = (name: string, suffix: string) => methodName(name, 'member', suffix, usedMethods);
  const argsClass = (base: string, properties: PropertyModel[]) => {
    if (properties.length === 0) return undefined;
    emitter.emit({ name: base, properties });
    out.classNames.push(className(base));
    return className(base);
  };
  if (config.prompts !== false) {
    for (const prompt of snapshot.prompts) {
      out.uses.add('Prompt');
      const args = completing(`{ prompt: ${tsLiteral(prompt.name)} }`, promptArguments(prompt));
      out.methods.push(promptSource(prompt, method(prompt.name, 'Prompt'), argsClass(`${pascal(prompt.name) || 'Member'}PromptArgs`, args)));
    }
  }
  if (config.resources !== false) {
    for (const resource of snapshot.resources) {
      out.uses.add('Resource');
      out.watchable.uris.push(resource.uri);
      out.methods.push(resourceSource(resource, method(resource.name, 'Resource')));
    }
    for (const template of snapshot.resourceTemplates) {
      let variables: string[];
      try {
        variables = new UriTemplate(template.uriTemplate).variableNames;
      } catch {
        warnings.push(`resource template ${JSON.stringify(template.uriTemplate)}: it is not an RFC 6570 template, so it is left out`);
        continue;
      }
      if (variables.length === 0) {
        warnings.push(`resource template ${JSON.stringify(template.uriTemplate)}: it has no variables, so it is left out (the upstream lists its resources itself)`);
        continue;
      }
      out.uses.add('ResourceTemplate');
      out.watchable.uriTemplates.push(template.uriTemplate);
      const properties = completing(
        `{ uriTemplate: ${tsLiteral(template.uriTemplate)} }`,
        variables.map((variable) => ({ name: variable, required: true, schema: { kind: 'string' as const, description: `The {${variable}} of ${template.uriTemplate}.` } })),
      );
      out.methods.push(templateSource(template, method(template.name, 'Template'), argsClass(`${pascal(template.name) || 'Member'}TemplateArgs`, properties), variables));
    }
  }
  return out;
}

/** A generated method's name for an upstream primitive's: an identifier, `suffix` after it, unlike any in `used` (which it joins). */
export function methodName(name: string, fallback: string, suffix: string, used: Set<string>): string {
  let candidate = `${names(name).propertyName.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(\d)/, '_$1') || fallback}${suffix}`;
  while (used.has(candidate)) candidate = `${candidate}_`;
  used.add(candidate);
  return candidate;
}

function promptArguments(prompt: Prompt): PropertyModel[] {
  return (prompt.arguments ?? []).map((argument) => ({
    name: argument.name,
    required: argument.required === true,
    schema: { kind: 'string' as const, ...(argument.description && { description: plainText(argument.description) }) },
  }));
}

/** The name core serves it under (the upstream's when clients accept it), and its title (the upstream's name where it had to change). */
function served(name: string, title: string | undefined): { name: string; title?: string } {
  if (MEMBER_NAME.test(name)) return { name, ...(title && { title }) };
  return { name: name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128) || 'member', title: title ?? name };
}

function describedAs(kind: string, item: { name: string; title?: string; description?: string }): string {
  return item.description?.trim() || item.title?.trim() || `The ${kind} ${item.name} of the upstream MCP server (it gives no description).`;
}

function options(entries: Record<string, unknown>): string {
  return Object.entries(entries)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${key === 'args' ? String(value) : tsLiteral(value)}`)
    .join(', ');
}

function promptSource(prompt: Prompt, methodName: string, args: string | undefined): string {
  const sent = (prompt.arguments ?? []).map((argument) => `${tsKey(argument.name)}: args[${tsLiteral(argument.name)}]`);
  const decorator = options({ ...served(prompt.name, prompt.title), description: describedAs('prompt', prompt), args });
  return `
  @Prompt({ ${decorator} })
  ${methodName}(${args ? `args: ${args}` : ''}): Promise<PromptMessage[]> {
    return this.upstream.getPrompt(${tsLiteral(prompt.name)}, ${args ? `{ ${sent.join(', ')} }` : '{}'}, this.context, this.logger);
  }
`;
}

function resourceSource(resource: Resource, methodName: string): string {
  const decorator = options({ uri: resource.uri, ...served(resource.name, resource.title), description: describedAs('resource', resource), mimeType: resource.mimeType });
  return `
  @Resource({ ${decorator} })
  ${methodName}(): Promise<ResourceBody> {
    return this.upstream.readResource(${tsLiteral(resource.uri)}, this.context, this.logger);
  }
`;
}

function templateSource(template: ResourceTemplateType, methodName: string, args: string | undefined, variables: readonly string[]): string {
  const decorator = options({ uriTemplate: template.uriTemplate, ...served(template.name, template.title), description: describedAs('resource template', template), mimeType: template.mimeType, args });
  return `
  @ResourceTemplate({ ${decorator} })
  ${methodName}(${args ? `args: ${args}` : ''}): Promise<ResourceBody> {
    return this.upstream.readTemplate(${tsLiteral(template.uriTemplate)}, { ${variables.map((variable) => `${tsKey(variable)}: args[${tsLiteral(variable)}]`).join(', ')} }, this.context, this.logger);
  }
`;
}
