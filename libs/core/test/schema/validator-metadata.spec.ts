import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { validationMetadatasOf } from '../../src/schema/validator-keywords';
import { checkValidationShortcut } from '../../src/schema/validation-shortcut-check';

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

describe('checkValidationShortcut (run by the gate at startup)', () => {
  it('accepts classes where the shortcut and class-validator agree, mixins with linked prototypes included', () => {
    class Mixed {
      @IsString()
      label!: string;
    }
    Object.setPrototypeOf(Mixed.prototype, Base.prototype);
    expect(() => checkValidationShortcut([Base, Middle, Leaf, Mixed])).not.toThrow();
  });

  it('fails loudly, naming the class, when they disagree', () => {
    class Other {
      @IsInt()
      other!: number;
    }
    class Child extends Base {}
    const original = Object.getOwnPropertyDescriptor(Base.prototype, 'constructor')!;
    // A prototype whose constructor lies is a case the shortcut reads differently from class-validator.
    Object.defineProperty(Base.prototype, 'constructor', { value: Other, configurable: true, writable: true });
    try {
      expect(() => checkValidationShortcut([Child])).toThrow(
        "no longer matches class-validator's own getTargetValidationMetadatas for class 'Child' (1 vs 4 rules)",
      );
    } finally {
      Object.defineProperty(Base.prototype, 'constructor', original);
    }
  });
});
