import { pascal } from './convert-schema';
import type { PropertyModel, SchemaModel } from './schema-model';

/**
 * The fields of an answer to keep, as a tree: `['number', 'user.login', 'labels.name']` becomes
 * `{ number: true, user: { login: true }, labels: { name: true } }`. `true` keeps the whole value.
 */
export type FieldTree = { readonly [field: string]: true | FieldTree };

/** Reads a tool's `fields` entry (paths of dot-separated names; arrays are walked through) into a tree. */
export function fieldTree(where: string, paths: unknown): FieldTree {
  if (!Array.isArray(paths) || paths.length === 0) throw new Error(`${where}: must be a list of one or more field paths ("number", "user.login", "labels.name").`);
  const tree: Record<string, true | Record<string, unknown>> = {};
  for (const path of paths) {
    const parts = typeof path === 'string' ? path.split('.') : [];
    if (parts.includes('__proto__')) throw new Error(`${where}: ${JSON.stringify(path)} names __proto__, which generated code cannot keep as a field.`);
    if (parts.length === 0 || parts.some((part) => part.trim() === '')) throw new Error(`${where}: ${JSON.stringify(path)} is not a field path; write names joined by dots ("user.login").`);
    let node: Record<string, true | Record<string, unknown>> = tree;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const existing = node[part];
      if (existing === true) return;
      if (last) node[part] = true;
      else node = (node[part] = (existing as Record<string, true | Record<string, unknown>>) ?? {}) as Record<string, true | Record<string, unknown>>;
    });
  }
  return tree as FieldTree;
}

/**
 * The answer's schema cut down to the tree's fields: each kept object becomes a class of its own,
 * named after the tool and its path (`ListIssuesData`, `ListIssuesDataUser`), so a shared schema
 * (an `Issue` other tools return whole) is not narrowed for them. A path the schema does not have
 * stops the generator with the fields it does have.
 */
export function projectSchema(where: string, schema: SchemaModel, tree: FieldTree, className: string, path = ''): SchemaModel {
  switch (schema.kind) {
    case 'array':
      return { ...schema, items: projectSchema(where, schema.items, tree, className, path) };
    case 'object':
      return { ...schema, name: className, properties: projectProperties(where, schema, tree, className, path) };
    case 'union': {
      // A label that is a string or an object (GitHub's): the string arm stays, the object arms that have the fields are cut.
      const structured = schema.arms.filter((arm) => hasFields(arm, tree));
      if (structured.length === 0) return projectSchema(where, schema.arms.find((arm) => arm.kind === 'object') ?? schema.arms[0]!, tree, className, path);
      const arms = schema.arms.flatMap((arm) => (isStructured(arm) ? (structured.includes(arm) ? [arm] : []) : [arm]));
      return { ...schema, arms: arms.map((arm) => (isStructured(arm) ? projectSchema(where, arm, tree, structured.length > 1 ? `${className}${structured.indexOf(arm) + 1}` : className, path) : arm)) };
    }
    default:
      throw new Error(`${where}: ${path ? `"${path}"` : 'the answer'} is ${schema.kind === 'open' ? 'an open value' : `a ${schema.kind}`}, which has no fields to pick from. Keep "${path || 'it'}" whole instead.`);
  }
}

function projectProperties(where: string, schema: SchemaModel & { kind: 'object' }, tree: FieldTree, className: string, path: string): PropertyModel[] {
  const kept: PropertyModel[] = [];
  for (const [field, below] of Object.entries(tree)) {
    const property = schema.properties.find((candidate) => candidate.name === field);
    const fieldPath = path ? `${path}.${field}` : field;
    if (!property) {
      const known = schema.properties.map((candidate) => candidate.name);
      throw new Error(`${where}: "${fieldPath}" is not a field of the answer${path ? `'s "${path}"` : ''} (renamed or removed upstream?). Its fields: ${known.join(', ') || 'none'}. Name one of them, or remove the path.`);
    }
    kept.push(below === true ? property : { ...property, schema: projectSchema(where, property.schema, below, `${className}${pascal(field)}`, fieldPath) });
  }
  // The document's order, not the config's: the result reads as the API's own.
  return schema.properties.filter((property) => kept.some((k) => k.name === property.name)).map((property) => kept.find((k) => k.name === property.name)!);
}

/** An object, or an array of them: what fields are picked from. */
function isStructured(schema: SchemaModel): boolean {
  return schema.kind === 'object' || (schema.kind === 'array' && isStructured(schema.items));
}

/** Whether an object (or an array of them) has every top-level field of the tree. */
function hasFields(schema: SchemaModel, tree: FieldTree): boolean {
  if (schema.kind === 'array') return hasFields(schema.items, tree);
  return schema.kind === 'object' && Object.keys(tree).every((field) => schema.properties.some((property) => property.name === field));
}
