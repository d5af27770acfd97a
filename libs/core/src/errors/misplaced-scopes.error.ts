import { ContractViolation, type ViolationSite } from './contract-violation';

/** `@RequireScopes` on a method that is not a tool: prompts and resources take their toolset's scopes. */
export class MisplacedScopesError extends ContractViolation {
  constructor(site: ViolationSite, className: string, methodName: string) {
    super(
      site,
      `@RequireScopes is on ${className}.${methodName}(), which is not a @Tool; prompts and resources are guarded by their toolset's scopes only.`,
      `move @RequireScopes to the class ${className} (it then guards every member), or to a @Tool method.`,
    );
  }
}
