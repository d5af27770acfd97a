/** What a generated tool is made from: one OpenAPI operation, neutral of both OpenAPI and TypeScript. */
export interface OperationModel {
  toolName: string;
  operationId?: string;
  method: HttpMethod;
  path: string;
  description: string;
  tags: readonly string[];
  /** More words discovery search finds the tool by: its verbs, path nouns, tag, `x-mcp-keywords` (operation-keywords.ts). */
  keywords: readonly string[];
  annotations: ToolAnnotationsModel;
  parameters: readonly ParameterModel[];
  /** The request body (dereferenced schema), when the operation takes one the generator can send. */
  requestBody?: RequestBodyModel;
  /** Why the operation cannot become a tool (a body in a media type the generator cannot send); it is left out and listed. */
  unsupported?: string;
  /** Whether the operation requires a credential (its own `security`, else the document's). */
  secured: boolean;
  /** The first 2xx response with a JSON body (dereferenced schema), when there is one. */
  successBody?: { status: string; schema: unknown };
  /**
   * When the success responses declare bodies but none in JSON: text (`text/csv`, YAML, XML) comes
   * back as text, anything else (a PDF, an image) as an embedded resource; `types` are what to accept.
   */
  successMedia?: { kind: 'text' | 'binary'; types: readonly string[] };
  /** With a JSON success body: the Accept header when its JSON is declared under other names than `application/json` (vendor `+json` types). */
  jsonAccept?: string;
}

export interface RequestBodyModel {
  required: boolean;
  schema: unknown;
  /** JSON (also `+json` types and `*\/*`), a URL-encoded form, or multipart. */
  encoding: 'json' | 'form' | 'multipart';
  /** Form and multipart fields' `encoding` style and explode, where the document gives them. */
  styles: Record<string, { style: string; explode: boolean }>;
  /** Multipart fields that are files (`format: binary`): sent as file parts, given as base64. */
  files: string[];
  /** A JSON body's Content-Type when the document declares another than `application/json` (a vendor `+json` type). */
  mediaType?: string;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  schema: unknown;
  /** The parameter's `style` and `explode`, when the document gives either. */
  style?: string;
  explode?: boolean;
}

export interface ToolAnnotationsModel {
  readOnlyHint?: true;
  destructiveHint?: true;
  idempotentHint?: true;
}
