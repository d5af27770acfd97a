import { ContractViolation, type ViolationSite } from './contract-violation';

/** A view option on a prompt or resource, or a `ui://` resource declared by hand: only tools have views. */
export class MisplacedViewError extends ContractViolation {
  constructor(site: ViolationSite, where: string, problem: 'option' | 'resource') {
    super(
      site,
      problem === 'option'
        ? `${where} has a \`view\` option, but only tools have views: a host renders a view for a tool's result.`
        : `${where} declares a ui:// resource by hand: ui:// is the MCP Apps scheme for views, which hosts render only with the view's MIME type and CSP.`,
      problem === 'option'
        ? 'move `view` to the @Tool whose result it shows, or remove it.'
        : 'declare it with `defineView({ uri, bundle })` and link it with `@Tool({ view })`; the server registers the resource itself.',
    );
  }
}
