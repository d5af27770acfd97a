import { ContractViolation } from './contract-violation';

/** One `ui://` URI that two view definitions (or a view and a resource) give different content. */
export class ConflictingViewError extends ContractViolation {
  constructor(uri: string, first: string, second: string, difference: string) {
    super(
      { resource: uri },
      `The view URI '${uri}' is used by ${first} and by ${second} for different views (${difference}); a host caches a view by its URI, so one URI must be one view.`,
      'share one `defineView(…)` constant between the tools, or give the second view its own URI.',
    );
  }
}
