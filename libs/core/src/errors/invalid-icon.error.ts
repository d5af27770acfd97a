import { ContractViolation, type ViolationSite } from './contract-violation';

/** `@Tool({ icons })` holds an icon clients could not show or should not fetch. */
export class InvalidIconError extends ContractViolation {
  constructor(site: ViolationSite, problem: string) {
    super(
      site,
      `@Tool({ icons }) ${problem}.`,
      "give each icon as `{ src, mimeType?, sizes?, theme? }`: `src` an https URL or a `data:image/…;base64,…` URI (clients fetch nothing else), `sizes` like `['48x48']` or `['any']`, `theme` 'light' or 'dark'.",
    );
  }
}
