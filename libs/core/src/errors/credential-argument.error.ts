import { ContractViolation, type ViolationSite } from './contract-violation';

export class CredentialArgumentError extends ContractViolation {
  constructor(site: ViolationSite, argsClass: string, property: string, header: string) {
    super(
      site,
      `'${property}' of '${argsClass}' is an argument named like the credential header '${header}'; credentials must never be tool arguments.`,
      `remove '${property}' from '${argsClass}' and read the credential with \`context.credential('${header}')\` from the injected RequestContext.`,
    );
  }
}
