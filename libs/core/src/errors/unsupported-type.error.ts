import { ContractViolation, type ViolationSite } from './contract-violation';

export class UnsupportedTypeError extends ContractViolation {
  constructor(site: ViolationSite, className: string, property: string, got: string) {
    super(
      site,
      `'${property}' of '${className}' has a type the schema builder cannot express: ${got}.`,
      got === 'undefined'
        ? 'the type thunk returned undefined, usually a circular import: move the classes into one file or import the class directly.'
        : 'use String, Number, Boolean, Date, a class with @Field properties, an enum, `[Type]` for arrays, `unionOf(...)`, or a TypeBox schema.',
    );
  }
}
