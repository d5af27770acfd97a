import { ContractViolation, type ViolationSite } from './contract-violation';

/** A view whose built HTML file is not where it says: serving it would answer `resources/read` with nothing. */
export class MissingViewBundleError extends ContractViolation {
  constructor(site: ViolationSite, uri: string, bundle: string, reason: string) {
    super(
      site,
      `The view '${uri}' has no bundle at ${bundle} (${reason}).`,
      'build the library (`npx nx run <library>:build` builds its views/ into dist/views/), or point `bundle` at the built file; `nx g @toolsets/workspace-plugin:view` wires a new view into the build.',
    );
  }
}
