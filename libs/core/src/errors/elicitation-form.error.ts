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
      `'${field}' of the elicitation form '${form}' is ${what}; a form has only string, number, integer, boolean and enum fields, and arrays of string enum values (multi-selects).`,
      'flatten it into such fields (a multi-select: @Field(() => [String]) with @IsIn([...], { each: true })), or ask for it in a second form.',
    );
  }

  static titlesWithoutEnum(site: ViolationSite, form: string, field: string): ElicitationFormError {
    return new ElicitationFormError(
      site,
      `'${field}' of the elicitation form '${form}' has enumTitles but no enum values to title.`,
      `give its values with @IsIn(['a', 'b']) (with { each: true } on a multi-select) or an enum type, one title per value.`,
    );
  }

  static titlesMismatch(site: ViolationSite, form: string, field: string, missing: readonly string[], extra: readonly string[]): ElicitationFormError {
    const parts = [missing.length > 0 && `no title for ${missing.map((v) => JSON.stringify(v)).join(', ')}`, extra.length > 0 && `titles for ${extra.map((v) => JSON.stringify(v)).join(', ')}, which are not its values`].filter(Boolean);
    return new ElicitationFormError(site, `'${field}' of the elicitation form '${form}' has enumTitles with ${parts.join(', and ')}.`, 'give exactly one title per enum value, keyed by the value.');
  }

  static legacyWithoutTitles(site: ViolationSite, form: string, field: string): ElicitationFormError {
    return new ElicitationFormError(site, `'${field}' of the elicitation form '${form}' sets legacyEnumNames without enumTitles, so there are no names to send.`, 'add enumTitles: { value: \'Title\' } for its values, or remove legacyEnumNames.');
  }

  static legacyMultiSelect(site: ViolationSite, form: string, field: string): ElicitationFormError {
    return new ElicitationFormError(site, `'${field}' of the elicitation form '${form}' is a multi-select with legacyEnumNames; enumNames exists only for single-selects.`, 'remove legacyEnumNames: a titled multi-select is sent as items.anyOf.');
  }
}
