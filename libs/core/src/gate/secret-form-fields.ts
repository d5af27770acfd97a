import type { ElicitationForm } from '../compiled/elicitation-form';
import type { ToolCatalog } from '../compiled/tool-catalog';
import type { ClassType } from '../types/class-type';

/** Words that say a field asks the user for a credential. */
const SECRET = /pass(word|phrase|code)?\b|secret|token|api[\s_-]?key|private[\s_-]?key|access[\s_-]?key|credential|\bpin\b/i;

/** A form field that asks the user for a credential: where, and what gave it away. */
export interface SecretFormField {
  member: string;
  form: string;
  field: string;
}

/**
 * The elicitation form fields (of tools and prompts) whose name or description asks for a
 * password, token or key. A form's answer passes through the client and may reach the model; the
 * revision requires URL mode (`context.elicitUrl`) for anything sensitive.
 */
export function secretFormFields(catalog: ToolCatalog): SecretFormField[] {
  const members: [string, ReadonlyMap<ClassType, ElicitationForm> | undefined][] = [
    ...[...catalog.tools.values()].map((tool) => [`tool '${tool.name}'`, tool.elicitationForms] as [string, ReadonlyMap<ClassType, ElicitationForm> | undefined]),
    ...[...catalog.prompts.values()].map((prompt) => [`prompt '${prompt.name}'`, prompt.elicitationForms] as [string, ReadonlyMap<ClassType, ElicitationForm> | undefined]),
  ];
  const found: SecretFormField[] = [];
  for (const [member, forms] of members) {
    for (const [cls, form] of forms ?? []) {
      for (const [field, schema] of Object.entries(form.requestedSchema.properties)) {
        const words = `${field} ${typeof schema['title'] === 'string' ? schema['title'] : ''} ${typeof schema['description'] === 'string' ? schema['description'] : ''}`;
        if (SECRET.test(words.replace(/([a-z])([A-Z])/g, '$1 $2'))) found.push({ member, form: cls.name, field });
      }
    }
  }
  return found;
}
