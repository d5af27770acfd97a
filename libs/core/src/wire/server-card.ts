/** The JSON Schema every MCP Server Card names (SEP-2127's draft, experimental-ext-server-card). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The media type of a Server Card. */
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
/** Advertised by a mount that checks tokens: it accepts tokens a client obtained with its own credentials. */
export const CLIENT_CREDENTIALS_EXTENSION = 'io.modelcontextprotocol/oauth-client-credentials';
/** Where a card keeps what the draft leaves to vendors: groups, extensions, authorization. */
export const CARD_META_KEY = 'dev.toolsets/server';
