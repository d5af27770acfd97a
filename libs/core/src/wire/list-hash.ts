import { createHash } from 'node:crypto';

/**
 * The hash of a list answer's content (`{"tools":[…]}` as JSON): 22 characters of base64url SHA-256.
 * A server sends it as the list's ETag, the index shows it per mount, and the contract target
 * records it in `contract.json`: equal hashes mean a client sees exactly the reviewed catalog.
 */
export function listHash(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 22);
}

/** `listHash` of a list result object, serialised as the wire serialises it. */
export function listHashOf(result: object): string {
  return listHash(JSON.stringify(result));
}
