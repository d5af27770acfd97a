/** `METRICS=on` in an install without the OpenTelemetry metrics SDK, which core leaves optional. */
export class MetricsPackagesMissingError extends Error {
  constructor(missing: readonly string[], install: Readonly<Record<string, string>>) {
    const command = Object.entries(install).map(([name, range]) => `${name}@${range}`).join(' ');
    super(
      `METRICS is on, and /metrics needs ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed: @toolsets/core leaves the metrics SDK optional, as most servers never serve /metrics. Fix: npm install ${command}, or turn METRICS off.`,
    );
    this.name = 'MetricsPackagesMissingError';
  }
}
