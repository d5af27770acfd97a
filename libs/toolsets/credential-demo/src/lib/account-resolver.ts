import { createHash } from 'node:crypto';
import type { InjectionToken } from 'tsyringe';

/** Resolves a caller's token to the account it belongs to. A real deployment verifies the token. */
export interface AccountResolver {
  resolve(token: string, signal?: AbortSignal): Promise<string>;
}

export const ACCOUNT_RESOLVER: InjectionToken<AccountResolver> = Symbol.for('@toolsets/credential-demo:AccountResolver');

/** The demo's stand-in: `user-` plus the first 8 hex digits of the token's SHA-256. */
export class DigestAccountResolver implements AccountResolver {
  async resolve(token: string): Promise<string> {
    return `user-${createHash('sha256').update(token).digest('hex').slice(0, 8)}`;
  }
}
