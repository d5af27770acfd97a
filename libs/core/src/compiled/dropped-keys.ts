import type { ClassModel, TypeModel } from '../schema/type-model';

/** The paths of keys in a returned value that its result class does not declare (`greetings.[].txet`). */
export type DroppedKeysFinder = (value: unknown) => string[];

/**
 * Compiles, per result class, a walk that lists the keys projection will drop. Used in development
 * only, to say once that a key was dropped: a misspelled optional key is otherwise silent.
 */
export function compileDroppedKeysFinder(model: ClassModel): DroppedKeysFinder {
  return (value) => {
    const found: string[] = [];
    walkClass(model, value, '', found);
    return found;
  };
}

function walkClass(model: ClassModel, value: unknown, path: string, found: string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return;
  const record = value as Record<string, unknown>;
  const declared = new Set(model.fields.map((field) => field.name));
  for (const key of Object.keys(record)) if (!declared.has(key)) found.push(path + key);
  for (const field of model.fields) walkType(field.type, record[field.name], `${path}${field.name}.`, found);
}

function walkType(type: TypeModel, value: unknown, path: string, found: string[]): void {
  if (value === undefined || value === null) return;
  if (type.kind === 'object') walkClass(type.model, value, path, found);
  else if (type.kind === 'array' && Array.isArray(value)) value.forEach((item) => walkType(type.items, item, `${path}[].`, found));
}
