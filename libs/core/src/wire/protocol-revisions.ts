import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/** The per-request (2026-07-28) revisions this framework serves as the SDK does. */
export const MODERN_REVISIONS: ReadonlySet<string> = new Set(['2026-07-28']);

/** The 2025-era (negotiated per connection) protocol versions the SDK serves. */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/** Every protocol version a request may name and be served: the only ones a metric label carries. */
export const KNOWN_PROTOCOL_VERSIONS: ReadonlySet<string> = new Set([...MODERN_REVISIONS, ...LEGACY_VERSIONS]);
