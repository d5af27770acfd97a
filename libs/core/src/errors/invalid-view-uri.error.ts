import { ContractViolation, type ViolationSite } from './contract-violation';

/** A view URI that is not `ui://…`: hosts only render views from the `ui://` scheme. */
export class InvalidViewUriError extends ContractViolation {
  constructor(site: ViolationSite, uri: unknown) {
    super(
      site,
      `The view URI ${JSON.stringify(uri)} ${typeof uri === 'string' && uri.startsWith('ui://') ? 'is not a valid URI' : 'does not use the ui:// scheme MCP Apps reserves for views'}.`,
      "give defineView a URI such as 'ui://<toolset>/<view-name>' (letters, digits, '-', '_', '.' and '/').",
    );
  }
}
