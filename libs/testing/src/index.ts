export { connectToolset, type ConnectToolsetOptions, type ElicitAnswer, type LegacyClient, type ToolsetClient, type ToolView } from './connect-toolset';
export { textOf } from './result-text';
export { logMessage, startServerCommand, startServerProcess, type ServerProcess } from './server-process';
export { startTestIssuer, type MintOptions, type TestClient, type TestIssuer } from './test-issuer';
export { pollUntil, waitUntil } from './wait-until';
export { recordingLogger, type RecordingLogger } from './recording-logger';
export { freePort } from './free-port';
export { startTestRedis, type TestRedis } from './test-redis';
export { httpDispatch, modernMeta, MODERN_REVISION, rawToolsCall, resultOf, type RawAnswer, type RawDispatch } from './http-dispatch';
