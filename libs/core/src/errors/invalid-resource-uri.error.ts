import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidResourceUriError extends ContractViolation {
  constructor(site: ViolationSite, uri: unknown, reason: string) {
    super(site, `The resource URI ${JSON.stringify(uri)} ${reason}.`, "give @Resource a URI with a scheme, like `docs://readme` or `file:///srv/motd.txt`.");
  }
}
