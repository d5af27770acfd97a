import { installCommand } from '../helpers/optional-packages';

/** `METRICS=on` in an install without the OpenTelemetry metrics SDK, which core leaves optional. */
export class MetricsPackagesMissingError extends Error {
  constructor(missing: readonly string[], install: Readonly<Record<string, string>>) {
    super(
      `METRICS is on, and /metrics needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed: @toolsets/core leaves the metrics SDK optional, as most servers never serve /metrics. Fix: ${installCommand(install)}, or turn METRICS off.`,
    );
    this.name = 'MetricsPackagesMissingError';
  }
}
