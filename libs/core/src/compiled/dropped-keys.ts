import type { ClassModel, TypeModel } from '../schema/type-model';

/** The paths of keys in a returned value that its result class does not declare (`greetings.[].txet`). */
export type DroppedKeysFinder = (value: unknown) => string[];

/** Each class's declared field names, computed once and shared by every finder that meets the class. */
const declared = new WeakMap<ClassModel, ReadonlySet<string>>();

function declaredOf(model: ClassModel): ReadonlySet<string> {
  let names = declared.get(model);
  if (!names) declared.set(model, (names = new Set(model.fields.map((field) => field.name))));
  return names;
}

/**
 * Compiles, per result class, a walk that lists the keys projection will drop. Used in development
 * only, to say once that a key was dropped: a misspelled optional key is otherwise silent.
 */
export function compileDroppedKeysFinder(model: ClassModel): DroppedKeysFinder {
  const walkClass = (current: ClassModel, value: unknown, path: string, found: string[]): void => {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return;
    const record = value as Record<string, unknown>;
    const names = declaredOf(current);
    for (const key of Object.keys(record)) if (!names.has(key)) found.push(path + key);
    for (const field of current.fields) walkType(field.type, record[field.name], `${path}${field.name}.`, found);
  };
  const walkType = (type: TypeModel, value: unknown, path: string, found: string[]): void => {
    if (value === undefined || value === null) return;
    if (type.kind === 'object') walkClass(type.model, value, path, found);
    else if (type.kind === 'array' && Array.isArray(value)) for (const item of value) walkType(type.items, item, `${path}[].`, found);
  };
  return (value) => {
    const found: string[] = [];
    walkClass(model, value, '', found);
    return found;
  };
}
