export { connectToolset, type ConnectToolsetOptions, type LegacyClient, type ToolsetClient } from './connect-toolset';
export { textOf } from './result-text';
export { logMessage, startServerCommand, startServerProcess, type ServerProcess } from './server-process';
export { startTestIssuer, type MintOptions, type TestClient, type TestIssuer } from './test-issuer';
export { waitUntil } from './wait-until';
export { freePort } from './free-port';
