/** Over stdio there are no headers: `x-demo-token` is read from `X_DEMO_TOKEN`. */
export function credentialEnvironmentVariable(header: string): string {
  return header.toUpperCase().replace(/-/g, '_');
}
