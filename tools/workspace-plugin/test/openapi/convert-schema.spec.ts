import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectOperations } from '../../src/openapi/collect-operations';
import { SchemaConverter } from '../../src/openapi/convert-schema';
import { loadDocument } from '../../src/openapi/load-document';
import type { SchemaModel } from '../../src/openapi/schema-model';

const example = (path: string) => JSON.parse(readFileSync(join(require.resolve('@readme/oas-examples/package.json'), '..', path), 'utf-8'));

async function successSchemas(path: string) {
  const { document, schemaNames } = await loadDocument(example(path), path);
  const converter = new SchemaConverter(schemaNames);
  const models = new Map<string, SchemaModel>();
  for (const operation of collectOperations(document)) {
    if (operation.successBody) models.set(operation.toolName, converter.convert(operation.successBody.schema, `${operation.toolName}Data`));
  }
  return { models, converter };
}

/** Every schema of the document's operations (success bodies, request bodies, parameters), converted. */
async function everySchema(path: string) {
  const { document, schemaNames } = await loadDocument(example(path), path);
  const converter = new SchemaConverter(schemaNames);
  const models: SchemaModel[] = [];
  for (const operation of collectOperations(document)) {
    const schemas = [operation.successBody?.schema, operation.requestBody?.schema, ...operation.parameters.map((parameter) => parameter.schema)];
    for (const schema of schemas) if (schema !== undefined) models.push(converter.convert(schema, `${operation.toolName}Value`));
  }
  return { models, converter };
}

/** The open nodes reachable from `model`, each once (component classes may refer to themselves). */
function openValuesIn(model: SchemaModel, seen = new Set<SchemaModel>()): { reason: string }[] {
  if (seen.has(model)) return [];
  seen.add(model);
  switch (model.kind) {
    case 'open':
      return [model];
    case 'array':
      return openValuesIn(model.items, seen);
    case 'record':
      return openValuesIn(model.values, seen);
    case 'object':
      return model.properties.flatMap((property) => openValuesIn(property.schema, seen));
    case 'union':
      return model.arms.flatMap((arm) => openValuesIn(arm, seen));
    default:
      return [];
  }
}

describe('JSON Schema to the schema model', () => {
  it('names object classes after their components and keeps one model per component', async () => {
    const { models } = await successSchemas('3.0/json/petstore.json');
    const pet = models.get('get_pet_by_id')!;
    expect(pet).toMatchObject({ kind: 'object', name: 'Pet' });
    const byStatus = models.get('find_pets_by_status')!;
    expect(byStatus).toMatchObject({ kind: 'array', items: { kind: 'object', name: 'Pet' } });
    expect((byStatus as { items: SchemaModel }).items).toBe(pet);
    const properties = (pet as unknown as { properties: { name: string; required: boolean; schema: SchemaModel }[] }).properties;
    expect(properties.map((p) => [p.name, p.required, p.schema.kind])).toEqual([
      ['id', false, 'integer'],
      ['category', false, 'object'],
      ['name', true, 'string'],
      ['photoUrls', true, 'array'],
      ['tags', false, 'array'],
      ['status', false, 'enum'],
    ]);
    expect(properties.find((p) => p.name === 'status')!.schema).toMatchObject({ kind: 'enum', values: ['available', 'pending', 'sold'] });
  });

  it('keeps a recursive schema recursive: the property that refers back is the class itself', async () => {
    const { document, schemaNames } = await loadDocument(example('3.0/json/circular.json'), 'circular.json');
    const converter = new SchemaConverter(schemaNames);
    const errorMessage = (document as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas['ErrorMessage'];
    const model = converter.convert(errorMessage, 'ErrorMessage') as { kind: string; name: string; properties: { name: string; schema: SchemaModel }[] };
    expect(model).toMatchObject({ kind: 'object', name: 'ErrorMessage' });
    expect(model.properties.find((p) => p.name === 'inner')!.schema).toBe(model);
    expect(model.properties.find((p) => p.name === 'error')!.schema).toEqual({ kind: 'string', nullable: true });
    expect([...converter.openValues.keys()].filter((reason) => reason.includes('recursive'))).toEqual([]);
  });

  it('turns 3.0 nullable and 3.1 type arrays into nullable values, and oneOf with a discriminator into a union', () => {
    const converter = new SchemaConverter();
    expect(converter.convert({ type: 'string', nullable: true }, 'x')).toEqual({ kind: 'string', nullable: true });
    expect(converter.convert({ type: ['integer', 'null'], minimum: 1 }, 'x')).toEqual({ kind: 'integer', minimum: 1, nullable: true });
    expect(converter.convert({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 'x')).toEqual({ kind: 'string', nullable: true });
    const cat = { type: 'object', properties: { kind: { type: 'string' }, meows: { type: 'boolean' } } };
    const dog = { type: 'object', properties: { kind: { type: 'string' }, barks: { type: 'boolean' } } };
    expect(converter.convert({ oneOf: [cat, dog], discriminator: { propertyName: 'kind' } }, 'Pet')).toMatchObject({
      kind: 'union',
      discriminator: 'kind',
      arms: [{ kind: 'object', name: 'PetOption1' }, { kind: 'object', name: 'PetOption2' }],
    });
  });

  it('merges allOf into one class, maps additionalProperties to records, and keeps exclusive bounds of both dialects', () => {
    const converter = new SchemaConverter();
    const merged = converter.convert(
      { allOf: [{ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, { type: 'object', properties: { name: { type: 'string' } } }] },
      'Named',
    );
    expect(merged).toMatchObject({ kind: 'object', name: 'Named', properties: [{ name: 'id', required: true }, { name: 'name', required: false }] });
    expect(converter.convert({ type: 'object', additionalProperties: { type: 'integer' } }, 'Counts')).toEqual({ kind: 'record', values: { kind: 'integer' } });
    expect(converter.convert({ type: 'number', minimum: 0, exclusiveMinimum: true }, 'x')).toEqual({ kind: 'number', exclusiveMinimum: 0 });
    expect(converter.convert({ type: 'number', exclusiveMaximum: 10 }, 'x')).toEqual({ kind: 'number', exclusiveMaximum: 10 });
    // A format strict clients do not know would make their Ajv refuse the whole schema.
    expect(converter.convert({ type: 'string', format: 'repo.nwo' }, 'x')).toEqual({ kind: 'string' });
    expect(converter.convert({ type: 'string', format: 'date-time' }, 'x')).toEqual({ kind: 'string', format: 'date-time' });
    expect(converter.convert({ type: 'string', pattern: '[\\w-.]+' }, 'x')).toEqual({ kind: 'string' });
    expect(converter.openValues.get('a pattern validators cannot compile, dropped')).toBe(1);
  });

  it("drops a pattern or format the document's own example breaks, with a warning naming both (Linode's label pattern matches no label)", () => {
    const converter = new SchemaConverter();
    // Linode 4.x: the unescaped `..` in the lookahead matches any two characters, so no label of three or more matches.
    const label = { type: 'string', pattern: '^[a-zA-Z]((?!--|__|..)[a-zA-Z0-9-_.])+$', minLength: 3, example: 'linode123' };
    expect(converter.convert(label, 'LinodeLabel')).toEqual({ kind: 'string', minLength: 3 });
    expect(converter.convert({ type: 'string', format: 'uuid', example: '3a3ddd59d9a78bb8de041391075df44de62bfec8' }, 'HostUuid')).toEqual({ kind: 'string' });
    expect(converter.warnings).toEqual([
      "LinodeLabel: the document's own example \"linode123\" breaks its pattern \"^[a-zA-Z]((?!--|__|..)[a-zA-Z0-9-_.])+$\"; the pattern was dropped, or every real answer like it would be refused",
      "HostUuid: the document's own example \"3a3ddd59d9a78bb8de041391075df44de62bfec8\" breaks its format \"uuid\"; the format was dropped, or every real answer like it would be refused",
    ]);
    // An example that keeps them keeps them; no example keeps them too.
    expect(converter.convert({ type: 'string', pattern: '^[a-z]+$', format: 'email', examples: ['ada@example.com'] }, 'x')).toEqual({ kind: 'string', format: 'email' });
    expect(converter.convert({ type: 'string', pattern: '^[a-z]+$', example: 'ada' }, 'x')).toEqual({ kind: 'string', pattern: '^[a-z]+$' });
    expect(converter.convert({ type: 'string', pattern: '^[0-9a-f]{7,}$' }, 'x')).toEqual({ kind: 'string', pattern: '^[0-9a-f]{7,}$' });
    expect(converter.warnings).toHaveLength(3);
  });

  it("makes a value hold the document's own example: null makes it nullable, another type joins, a value outside the enum joins it, a broken length or bound goes (Linode's answers as its examples show them)", () => {
    const converter = new SchemaConverter();
    // Linode 4.x: Domain.description, InvoiceItem.unit_price, DatabaseBackup.label, LKENodeStatus.instance_id.
    expect(converter.convert({ type: 'string', minLength: 1, maxLength: 253, example: null }, 'DomainDescription')).toEqual({ kind: 'string', minLength: 1, maxLength: 253, nullable: true });
    expect(converter.convert({ type: 'string', example: 5.05 }, 'UnitPrice')).toEqual({ kind: 'union', arms: [{ kind: 'string' }, { kind: 'number' }] });
    expect(converter.convert({ type: 'string', example: 123458 }, 'InstanceId')).toEqual({ kind: 'union', arms: [{ kind: 'string' }, { kind: 'integer' }] });
    expect(converter.convert({ type: 'string', maxLength: 30, example: 'Scheduled - 02/04/22 11:11 UTC-XcCRmI' }, 'BackupLabel')).toEqual({ kind: 'string' });
    expect(converter.convert({ type: 'string', enum: ['raw', 'ext4'], example: 'ext3' }, 'DiskType')).toEqual({ kind: 'enum', values: ['raw', 'ext4', 'ext3'] });
    expect(converter.convert({ type: 'integer', minimum: 1, maximum: 10, examples: [20] }, 'Count')).toEqual({ kind: 'integer', minimum: 1 });
    expect(converter.warnings).toEqual([
      "DomainDescription: the document's own example null breaks its type (string, not nullable); it was made nullable, or every real answer like it would be refused",
      "UnitPrice: the document's own example 5.05 breaks its type string; number was added to it, or every real answer like it would be refused",
      "InstanceId: the document's own example 123458 breaks its type string; integer was added to it, or every real answer like it would be refused",
      "BackupLabel: the document's own example \"Scheduled - 02/04/22 11:11 UTC-XcCRmI\" breaks its maxLength 30; the maxLength was dropped, or every real answer like it would be refused",
      "DiskType: the document's own example \"ext3\" breaks its enum [\"raw\",\"ext4\"]; the example joined the enum, or every real answer like it would be refused",
      "Count: the document's own example 20 breaks its maximum 10; the maximum was dropped, or every real answer like it would be refused",
    ]);
    // An example that holds changes nothing and says nothing; an integer example holds for a number.
    expect(converter.convert({ type: 'string', maxLength: 5, example: 'ada' }, 'x')).toEqual({ kind: 'string', maxLength: 5 });
    expect(converter.convert({ type: 'number', example: 3 }, 'x')).toEqual({ kind: 'number' });
    expect(converter.convert({ type: 'string', nullable: true, example: null }, 'x')).toEqual({ kind: 'string', nullable: true });
    expect(converter.convert({ type: 'object', properties: { a: { type: 'string' } }, example: { a: 1 } }, 'Obj')).toMatchObject({ kind: 'object' });
    expect(converter.warnings).toHaveLength(6);
  });

  it('never throws on the edge-case documents: what it cannot express becomes an open value with the reason', async () => {
    let openNodes = 0;
    for (const path of ['3.0/json/discriminators.json', '3.0/json/polymorphism.json', '3.0/json/schema-additional-properties.json', '3.0/json/complex-nesting.json', '3.1/json/schema-types.json']) {
      const { models, converter } = await everySchema(path);
      expect(models.length).toBeGreaterThan(0);
      const open = models.flatMap((model) => openValuesIn(model));
      // Every node it could not express says why, and the converter counted each reason it gave.
      for (const node of open) {
        expect(node.reason).toMatch(/\w{3,}/);
        expect([...converter.openValues.keys()].some((counted) => node.reason.startsWith(counted.replace(/, cut here$/, '')))).toBe(true);
      }
      openNodes += open.length;
    }
    // The documents do hold forms the model cannot express, so the reasons above were read.
    expect(openNodes).toBeGreaterThan(0);
  });
});
