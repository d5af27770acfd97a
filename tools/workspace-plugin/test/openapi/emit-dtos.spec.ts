import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import * as core from '@toolsets/core';
import { collectOperations } from '../../src/openapi/collect-operations';
import { SchemaConverter, pascal } from '../../src/openapi/convert-schema';
import { DtoEmitter, dtoImports } from '../../src/openapi/emit-dtos';
import { loadDocument } from '../../src/openapi/load-document';

const example = (path: string) => JSON.parse(readFileSync(join(require.resolve('@readme/oas-examples/package.json'), '..', path), 'utf-8'));

/** Compiles emitted source the way the build does (legacy decorators with metadata) and loads it. */
function load(source: string): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: true, emitDecoratorMetadata: true },
  });
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'module', 'exports', outputText)(require, module, module.exports);
  return module.exports;
}

/** One result class per operation with a JSON body, emitted from a document, and a toolset over them for the gate. */
async function emitResults(path: string) {
  const { document, schemaNames } = await loadDocument(example(path), path);
  const converter = new SchemaConverter(schemaNames);
  const emitter = new DtoEmitter();
  const operations = collectOperations(document).filter((op) => op.successBody || op.requestBody);
  for (const op of operations) {
    if (op.requestBody) {
      const body = converter.convert(op.requestBody.schema, `${pascal(op.toolName)}Body`);
      emitter.emit({ name: `${pascal(op.toolName)}Args`, properties: [{ name: 'body', required: op.requestBody.required, schema: body }] });
    }
    emitter.emit({
      name: `${pascal(op.toolName)}Result`,
      extendsClass: 'ToolResult',
      properties: [
        { name: 'status', required: true, schema: { kind: 'integer' } },
        ...(op.successBody ? [{ name: 'data', required: false, schema: converter.convert(op.successBody.schema, `${pascal(op.toolName)}Data`) }] : []),
      ],
    });
  }
  const source = `${dtoImports(emitter.uses, { core: ['ToolResult'] })}\n\n${emitter.source()}\n`;
  const exports = load(source);
  class GeneratedToolset {}
  for (const op of operations) {
    const method = op.toolName;
    (GeneratedToolset.prototype as unknown as Record<string, () => unknown>)[method] = () => ({ message: 'm', status: 200 });
    const args = op.requestBody ? (exports[`${pascal(op.toolName)}Args`] as core.ClassType) : undefined;
    core.Tool({ name: op.toolName, description: op.description, args, returns: exports[`${pascal(op.toolName)}Result`] as typeof core.ToolResult })(
      GeneratedToolset.prototype,
      method,
      Object.getOwnPropertyDescriptor(GeneratedToolset.prototype, method)!,
    );
  }
  core.Toolset({ name: 'generated', description: path })(GeneratedToolset);
  return { source, catalog: core.runContractGate('generated', [GeneratedToolset]), converter };
}

describe('emitted DTO classes', () => {
  it('read like hand-written ones and pass the startup gate (petstore 3.0)', async () => {
    const { source, catalog } = await emitResults('3.0/json/petstore.json');
    expect(source).toContain('export class Pet {\n  @Field(() => Number, { default: 40 })\n  @IsInt()\n  @IsOptional()\n  id?: number;');
    expect(source).toContain('  @Field(() => [String])\n  photoUrls!: string[];');
    expect(source).toContain("  @Field(() => String, { description: 'pet status in the store' })\n  @IsIn(['available', 'pending', 'sold'])\n  @IsOptional()\n  status?: 'available' | 'pending' | 'sold';");
    expect(source.indexOf('export class Category')).toBeLessThan(source.indexOf('export class Pet {'));
    const data = (catalog.tools.get('get_pet_by_id')!.descriptor.outputSchema as { properties: { data: { properties: object; required: string[] } } }).properties.data;
    expect(Object.keys(data.properties)).toEqual(['id', 'category', 'name', 'photoUrls', 'tags', 'status']);
    expect(data.required).toEqual(['name', 'photoUrls']);
  });

  it("advertises a document's default through @Field, without an initial value that would send it", () => {
    const emitter = new DtoEmitter();
    emitter.emit({ name: 'ListArgs', properties: [{ name: 'limit', required: false, schema: { kind: 'integer', default: 20 } }, { name: 'order', required: false, schema: { kind: 'enum', values: ['asc', 'desc'], default: 'asc' } }] });
    expect(emitter.source()).toContain('  @Field(() => Number, { default: 20 })\n  @IsInt()\n  @IsOptional()\n  limit?: number;');
    expect(emitter.source()).toContain("  order?: 'asc' | 'desc';");
  });

  it.each(['3.1/json/petstore.json', '3.0/json/discriminators.json', '3.0/json/polymorphism.json', '3.0/json/schema-additional-properties.json', '3.0/json/complex-nesting.json', '3.1/json/schema-types.json'])(
    'from %s pass the startup gate, with what they cannot express as open values',
    async (path) => {
      const { catalog } = await emitResults(path);
      expect(catalog.tools.size).toBeGreaterThan(0);
    },
  );
});
