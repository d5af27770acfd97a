'use strict';
// Plain CommonJS: it also runs in the child process that serves a generated library to measure it
// (measure-catalog.child.cjs), where nothing compiles TypeScript first; the bench reads it too.

/**
 * The arguments a careful model would send from the advertised input schema alone: every required
 * property, and nothing else; a value from the schema's `const`, `default`, first `enum` value or
 * first example, else one made from its type and format within its bounds.
 */
function argumentsFor(schema, root = schema, depth = 0) {
  const ref = typeof schema.$ref === 'string' ? schema.$ref.replace(/^#\/\$defs\//, '') : undefined;
  if (ref !== undefined) return argumentsFor((root.$defs ?? {})[ref] ?? {}, root, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const arms = schema.anyOf ?? schema.oneOf;
  if (arms?.length) return argumentsFor(arms.find((arm) => arm.type !== 'null') ?? arms[0], root, depth);
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      if (depth > 8) return {};
      return Object.fromEntries(required.filter((name) => properties[name]).map((name) => [name, argumentsFor(properties[name], root, depth + 1)]));
    }
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return Array.from({ length: count }, () => argumentsFor(schema.items ?? {}, root, depth + 1));
    }
    case 'integer':
    case 'number': {
      const minimum = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined);
      return typeof minimum === 'number' ? minimum : 1;
    }
    case 'boolean':
      return true;
    case 'string':
      return stringFor(schema);
    default:
      return 'test';
  }
}

function stringFor(schema) {
  switch (schema.format) {
    case 'date-time':
      return '2026-12-01T12:00:00Z';
    case 'date':
      return '2026-12-01';
    case 'email':
      return 'someone@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'uuid':
      return '3f8e4a1c-2b7d-4c9e-8f10-5a6b7c8d9e0f';
    case 'byte':
      return Buffer.from('test').toString('base64');
    default: {
      const least = Number(schema.minLength ?? 0);
      return least > 4 ? 'x'.repeat(least) : 'test';
    }
  }
}

module.exports = { argumentsFor };
