/** Where a violation was found: the toolset, the tool and the property path inside its DTOs. */
export interface ViolationSite {
  toolset?: string;
  tool?: string;
  prompt?: string;
  /** A resource's URI or a template's URI template. */
  resource?: string;
  /** e.g. `SearchResult.matches[].score` */
  path?: string;
}

/**
 * One way a toolset breaks the contract, found by the startup gate. Each kind is its own class; its
 * message says what is wrong, where, and how to fix it.
 */
export abstract class ContractViolation extends Error {
  readonly toolset?: string;
  readonly tool?: string;
  readonly path?: string;
  /** The problem alone, without the site and the fix. */
  readonly problem: string;
  readonly fix: string;

  protected constructor(site: ViolationSite, problem: string, fix: string) {
    super(`${describeSite(site)}${problem} Fix: ${fix}`);
    this.name = new.target.name;
    this.toolset = site.toolset;
    this.tool = site.tool;
    this.path = site.path;
    this.problem = problem;
    this.fix = fix;
  }
}

function describeSite(site: ViolationSite): string {
  const parts = [
    site.toolset && `toolset '${site.toolset}'`,
    site.tool && `tool '${site.tool}'`,
    site.prompt && `prompt '${site.prompt}'`,
    site.resource && `resource '${site.resource}'`,
    site.path && site.path,
  ].filter(Boolean);
  return parts.length ? `[${parts.join(' > ')}] ` : '';
}
