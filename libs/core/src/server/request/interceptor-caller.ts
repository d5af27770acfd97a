import { createHash } from 'node:crypto';
import type { CompiledToolset } from '../../compiled/tool-catalog';
import type { CallCaller } from '../../metadata/tool-interceptor';
import { credentialsOf, type CallOrigin } from './call-origin';

/**
 * Who makes this call, for interceptors: the verified token's subject, which declared credentials
 * it sent (by name, and a hash of their values to key on), and its address over HTTP. The same for
 * a task's call as for the request that created it: both read the same origin.
 */
export function interceptorCaller(mount: string, origin: CallOrigin, toolset: CompiledToolset): CallCaller {
  const verified = origin.caller;
  const hash = createHash('sha256');
  const credentials: string[] = [];
  for (const [header, value] of credentialsOf(origin, toolset.credentialHeaders)) {
    credentials.push(header);
    hash.update(`${header}\n${value}\n`);
  }
  const issuer = verified?.claims['iss'];
  return {
    mount,
    authenticated: verified !== undefined,
    ...(typeof issuer === 'string' && { issuer }),
    ...(verified?.subject !== undefined && { subject: verified.subject }),
    ...(verified?.clientId !== undefined && { clientId: verified.clientId }),
    credentials,
    ...(credentials.length > 0 && { credentialHash: hash.digest('hex') }),
    ...(origin.address !== undefined && { address: origin.address }),
  };
}
