import { ContractViolation, type ViolationSite } from './contract-violation';

/** A form a tool lists in `elicits` that cannot be sent as an elicitation form. */
export class ElicitationFormError extends ContractViolation {
  constructor(site: ViolationSite, problem: string, fix: string) {
    super(site, problem, fix);
  }

  static notAClass(site: ViolationSite, listed: string): ElicitationFormError {
    return new ElicitationFormError(site, `\`elicits\` lists ${listed}, which is not a class.`, 'list the form classes themselves: `elicits: [ContactForm]`.');
  }

  static notFlat(site: ViolationSite, form: string, field: string, what: string): ElicitationFormError {
    return new ElicitationFormError(
      { ...site, path: `${form}.${field}` },
      `'${field}' of the elicitation form '${form}' is ${what}; a form has only string, number, integer, boolean and enum fields.`,
      'flatten it into such fields, or ask for it in a second form.',
    );
  }
}
