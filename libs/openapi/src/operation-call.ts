/** One HTTP request a generated tool makes, described by the generator from the operation. */
export interface OperationCall {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
  /** The path template, e.g. `/pet/{petId}`. */
  path: string;
  pathParams?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  /** The JSON request body, when the operation takes one. */
  body?: unknown;
  /** `json` when the document declares a JSON success body: then a 2xx body that is not JSON is an invalid answer. */
  responseType?: 'json';
}
