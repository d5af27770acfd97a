import { ContractViolation, type ViolationSite } from './contract-violation';

export class NoExplicitTypeError extends ContractViolation {
  constructor(site: ViolationSite, className: string, property: string, reflectedType: string) {
    super(
      site,
      `'${property}' of '${className}' reflects as ${reflectedType}, which does not say what it holds.`,
      `give @Field an explicit type: \`@Field(() => [Item])\` for an array of Item, \`@Field(() => Nested)\` for an object, \`@Field(() => unionOf(A, B))\` for a union; for \`T | null\`, \`@Field(() => String, { nullable: true })\` (with T's type), since \`@Field(() => String)\` alone refuses every null at run time.`,
    );
  }
}
