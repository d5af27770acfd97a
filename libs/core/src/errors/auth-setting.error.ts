/**
 * A token-verification setting that cannot work, named by its environment variable (and its
 * option, for code that passes settings directly), with the fix. Stops startup: a server that
 * should check tokens never serves without them.
 */
export class AuthSettingError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
    fix: string,
  ) {
    super(`Not starting: ${variable} ${problem}. Fix: ${fix}`);
    this.name = 'AuthSettingError';
  }
}
