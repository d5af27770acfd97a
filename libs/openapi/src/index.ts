export { OpenApiClient, type OperationResult } from './openapi-client';
export type { OperationCall } from './operation-call';
export { baseUrlVariable, DEFAULT_TIMEOUT_MS, settingsFromEnvironment, type ApiSettings, type UpstreamCredential } from './api-settings';
