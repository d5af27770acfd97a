import { installCommand } from '../helpers/optional-packages';

/** `REDIS_URL` set in an install without the Redis client or the queue, which core leaves optional. */
export class RedisPackagesMissingError extends Error {
  constructor(missing: readonly string[], install: Readonly<Record<string, string>>) {
    super(
      `REDIS_URL is set, and the shared task store, queue and interceptor stores need ${missing.join(' and ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed: @toolsets/core leaves them optional, as a single replica needs no Redis. Fix: ${installCommand(install)}, or unset REDIS_URL.`,
    );
    this.name = 'RedisPackagesMissingError';
  }
}
