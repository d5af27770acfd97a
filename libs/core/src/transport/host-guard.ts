import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  hostHeaderValidation,
  localhostHostValidation,
  localhostOriginValidation,
  originValidation,
} from '@modelcontextprotocol/node';

/** Answers a refused request itself (403 JSON-RPC error) and returns false. */
export type RequestGuard = (req: IncomingMessage, res: ServerResponse) => boolean;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * DNS-rebinding protection: on loopback only loopback `Host`/`Origin` names pass; elsewhere the
 * configured allow-list does, or anything when none is configured (behind a proxy that checks).
 */
export function hostGuard(host: string, allowedHosts: readonly string[] | undefined): RequestGuard | undefined {
  if (isLoopback(host)) {
    const validHost = localhostHostValidation();
    const validOrigin = localhostOriginValidation();
    return (req, res) => validHost(req, res) && validOrigin(req, res);
  }
  if (!allowedHosts || allowedHosts.length === 0) return undefined;
  const validHost = hostHeaderValidation([...allowedHosts]);
  const validOrigin = originValidation([...allowedHosts]);
  return (req, res) => validHost(req, res) && validOrigin(req, res);
}
