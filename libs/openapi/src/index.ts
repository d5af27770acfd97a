export { OpenApiClient, type OperationResult } from './openapi-client';
export type { OperationCall } from './operation-call';
export { keepFields, type KeptFields } from './kept-fields';
export type { ParameterStyle, Serialization } from './parameter-style';
export {
  baseUrlVariable,
  variablePrefix,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  settingsFromEnvironment,
  type ApiSettings,
  type UpstreamCredential,
} from './api-settings';
export { MAX_REDIRECTS } from './same-origin-redirects';
