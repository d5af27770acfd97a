import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidToolNameError extends ContractViolation {
  constructor(site: ViolationSite, name: string) {
    super(
      site,
      `The tool name ${JSON.stringify(name)} is rejected by MCP clients; names are 1 to 128 characters of A-Z a-z 0-9 _ - .`,
      "set `name:` in @Tool to a name like 'search_users', or rename the method.",
    );
  }
}
