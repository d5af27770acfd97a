import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { validationMetadatasOf } from '../../src/schema/validator-keywords';

class Base {
  @IsString()
  @MaxLength(10)
  name!: string;

  @IsInt()
  @Min(0)
  count!: number;
}

class Middle extends Base {
  @IsOptional()
  note?: string;
}

class Leaf extends Middle {
  // Redeclared: class-validator lets a subclass's custom rules replace the inherited ones.
  @Max(5)
  override count!: number;
}

const describe_ = (list: { propertyName: string; name?: string; type: string; target: unknown }[]) =>
  list.map((m) => `${(m.target as { name: string }).name}.${m.propertyName}:${m.type}:${m.name ?? ''}`).sort();

describe('validationMetadatasOf', () => {
  it.each([
    ['Base', Base],
    ['Middle', Middle],
    ['Leaf', Leaf],
  ])('returns what class-validator returns for %s, without scanning every class', (_name, cls) => {
    const expected = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
    expect(describe_(validationMetadatasOf(cls))).toEqual(describe_(expected));
  });
});
