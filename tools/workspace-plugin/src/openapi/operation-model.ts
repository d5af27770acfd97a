/** What a generated tool is made from: one OpenAPI operation, neutral of both OpenAPI and TypeScript. */
export interface OperationModel {
  toolName: string;
  operationId?: string;
  method: HttpMethod;
  path: string;
  description: string;
  tags: readonly string[];
  annotations: ToolAnnotationsModel;
  parameters: readonly ParameterModel[];
  /** The JSON request body's schema (dereferenced), when the operation takes one. */
  requestBody?: { required: boolean; schema: unknown };
  /** The first 2xx response with a JSON body (dereferenced schema), when there is one. */
  successBody?: { status: string; schema: unknown };
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  schema: unknown;
}

export interface ToolAnnotationsModel {
  readOnlyHint?: true;
  destructiveHint?: true;
  idempotentHint?: true;
}
