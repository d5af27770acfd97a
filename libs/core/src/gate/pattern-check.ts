import type { ClassModel, TypeModel } from '../schema/type-model';

// A check the gate runs so that compiling a schema on its first call (compiled/lazy-validator.ts)
// cannot fail there.

/** Every `pattern` in a schema that TypeBox could not compile (it uses the `u` flag), with its path. */
export function invalidPatterns(schema: unknown, path = ''): { path: string; pattern: string; reason: string }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: { path: string; pattern: string; reason: string }[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string') {
      try {
        new RegExp(value, 'u');
      } catch (error) {
        found.push({ path: path || '/', pattern: value, reason: (error as Error).message });
      }
    } else if (typeof value === 'object' && value !== null) {
      found.push(...invalidPatterns(value, `${path}/${key}`));
    }
  }
  return found;
}

/**
 * The patterns of result classes, read from their models rather than from emitted schemas: a
 * budgeted catalog never emits its whole output schemas at startup, and a class returned by many
 * tools (or reached from many) is checked once.
 */
export class ModelPatternCheck {
  private readonly checked = new Map<ClassModel, { path: string; pattern: string; reason: string }[]>();

  /** Every invalid pattern in a class and the classes it reaches, located by `'field' of 'Class'`. */
  invalidIn(root: ClassModel): { path: string; pattern: string; reason: string }[] {
    const found: { path: string; pattern: string; reason: string }[] = [];
    const visit = (type: TypeModel): void => {
      if (type.kind === 'array') visit(type.items);
      else if (type.kind === 'union') type.arms.forEach(visit);
      else if (type.kind === 'object') found.push(...this.ofClass(type.model, visit));
    };
    found.push(...this.ofClass(root, visit));
    return found;
  }

  private ofClass(model: ClassModel, visit: (type: TypeModel) => void): { path: string; pattern: string; reason: string }[] {
    const known = this.checked.get(model);
    if (known) return known;
    const own: { path: string; pattern: string; reason: string }[] = [];
    this.checked.set(model, own);
    for (const field of model.fields) {
      const where = `'${field.name}' of '${model.name}' (its outputSchema)`;
      own.push(...invalidPatterns(field.keywords).map((bad) => ({ ...bad, path: where })));
      if (field.type.kind === 'schema') own.push(...invalidPatterns(field.type.schema).map((bad) => ({ ...bad, path: `${where}${bad.path}` })));
      visit(field.type);
    }
    return own;
  }
}
