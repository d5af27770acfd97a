/** A built-in interceptor configured with a value it cannot work with, named with the fix. */
export class InterceptorOptionError extends Error {
  constructor(interceptor: string, option: string, value: unknown, fix: string) {
    super(`${interceptor}: ${option} is ${JSON.stringify(value) ?? String(value)}. Fix: ${fix}`);
    this.name = 'InterceptorOptionError';
  }
}
