import { ContractViolation, type ViolationSite } from './contract-violation';

export class TypeThunkError extends ContractViolation {
  constructor(site: ViolationSite, className: string, property: string, outcome: string) {
    super(
      site,
      `The type thunk of '${property}' of '${className}' ${outcome}. This is almost always an import cycle: the class the thunk names is not defined yet when the schema is built.`,
      'break the cycle: move the DTO classes both modules need into a module of their own and import them from there (not through an index that re-exports them), then keep the thunk `() => TheClass`.',
    );
  }
}
