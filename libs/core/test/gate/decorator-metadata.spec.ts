import 'reflect-metadata';
import {
  buildServer,
  ContractError,
  Field,
  MissingTypeMetadataError,
  ReflectMetadataMissingError,
  Tool,
  ToolResult,
  Toolset,
  type ClassType,
} from '../../src';

/** Declares a result with one `count` field the way code compiled without metadata does. */
function resultWithUntypedField(name: string): typeof ToolResult {
  const result = class extends ToolResult {
    count!: number;
  };
  Object.defineProperty(result, 'name', { value: name });
  Field()(result.prototype, 'count');
  return result;
}

function toolsetReturning(result: typeof ToolResult) {
  @Toolset({ name: 'meta' })
  class MetaToolset {
    @Tool({ description: 'x', returns: result })
    act(): ToolResult {
      return { message: '' };
    }
  }
  return MetaToolset;
}

function violationsOf(toolset: ClassType) {
  try {
    buildServer({ name: 'meta', version: '0', toolsets: [toolset] });
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return (error as ContractError).violations;
  }
  throw new Error('the gate accepted it');
}

describe('decorator metadata at startup', () => {
  it('reports fields decorated before reflect-metadata was loaded, saying what to import', () => {
    const reflect = Reflect as unknown as Record<string, unknown>;
    const saved = { getMetadata: reflect['getMetadata'], metadata: reflect['metadata'] };
    let result: typeof ToolResult;
    try {
      delete reflect['getMetadata'];
      delete reflect['metadata'];
      result = resultWithUntypedField('EarlyResult');
    } finally {
      Object.assign(reflect, saved);
    }
    const [violation] = violationsOf(toolsetReturning(result));
    expect(violation).toBeInstanceOf(ReflectMetadataMissingError);
    expect(violation.message).toContain("'count' of 'EarlyResult' was decorated before reflect-metadata was loaded");
    expect(violation.message).toContain("import 'reflect-metadata';");
  });

  it('reports fields compiled without emitDecoratorMetadata, naming the compilers that keep it', () => {
    const [violation] = violationsOf(toolsetReturning(resultWithUntypedField('BundledResult')));
    expect(violation).toBeInstanceOf(MissingTypeMetadataError);
    expect(violation.message).toContain("'count' of 'BundledResult' has no reflected type");
    expect(violation.message).toContain('"emitDecoratorMetadata": true');
    expect(violation.message).toContain('esbuild drops the metadata');
  });

  it('reports a class without metadata once, listing its fields, and never the core\'s own classes', () => {
    const result = class extends ToolResult {
      city!: string;
      days!: number;
      unit!: string;
    };
    Object.defineProperty(result, 'name', { value: 'ForecastResult' });
    for (const field of ['city', 'days', 'unit']) Field()(result.prototype, field);
    const violations = violationsOf(toolsetReturning(result));
    expect(violations).toHaveLength(1);
    expect(violations[0].message).toContain("'city', 'days', 'unit' of 'ForecastResult' have no reflected type");
    expect(violations[0].message).not.toContain('ToolResult');
  });

  it('accepts such a field once it has an explicit type thunk', () => {
    const result = class extends ToolResult {
      count!: number;
    };
    Field(() => Number)(result.prototype, 'count');
    expect(() => buildServer({ name: 'meta', version: '0', toolsets: [toolsetReturning(result)] })).not.toThrow();
  });
});
