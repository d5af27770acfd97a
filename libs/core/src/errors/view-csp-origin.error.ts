import { ContractViolation, type ViolationSite } from './contract-violation';

/** A CSP domain of a view that is not an origin: hosts put these into Content-Security-Policy directives as written. */
export class ViewCspOriginError extends ContractViolation {
  constructor(site: ViolationSite, uri: string, list: string, value: unknown, reason: string, suggestion?: string) {
    super(
      site,
      `The view '${uri}' lists ${JSON.stringify(value)} in csp.${list}, which is not an origin (${reason}).`,
      suggestion
        ? `write the origin alone: '${suggestion}'.`
        : "write a scheme and host (and a port if not the default): 'https://api.example.com', 'wss://live.example.com', 'https://*.example.com'.",
    );
  }
}
