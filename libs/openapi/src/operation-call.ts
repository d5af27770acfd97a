import type { ClassType } from '@toolsets/core';
import type { KeptFields } from './kept-fields';
import type { Serialization } from './parameter-style';

/** One HTTP request a generated tool makes, described by the generator from the operation. */
export interface OperationCall {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
  /** The path template, e.g. `/pet/{petId}`. */
  path: string;
  pathParams?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  /** A parameter's style and explode, by name, where it is not OpenAPI's default for its location. */
  styles?: Record<string, Serialization>;
  /** The request body, when the operation takes one and the caller gave it. */
  body?: unknown;
  /** How the body is sent: JSON (the default), `application/x-www-form-urlencoded`, or `multipart/form-data`. */
  bodyEncoding?: 'json' | 'form' | 'multipart';
  /** Form and multipart fields' style and explode (the document's `encoding`), by field name. */
  bodyStyles?: Record<string, Serialization>;
  /** The document does not require a body: when the caller gives none of its fields, none is sent (never an empty `{}` the API refuses). */
  optionalBody?: boolean;
  /** An optional body's required fields: when the caller gives any field of the body, these must be given too. */
  bodyRequired?: readonly string[];
  /**
   * Credential headers this operation needs although the document offers them as alternatives (it
   * marks their parameters required: a boards API's `key` and `token`): a call without one is
   * refused before any request, naming the header.
   */
  requiresCredentials?: readonly string[];
  /** Multipart fields that are files: the caller gives their bytes base64-encoded; they go as file parts. */
  files?: readonly string[];
  /**
   * `json` when the document declares a JSON success body: then a 2xx body that is not JSON is an
   * invalid answer. `text` and `binary` when it declares only other media types (`accept`): a text
   * body comes back as `text`, bytes as an embedded resource beside the result.
   */
  responseType?: 'json' | 'text' | 'binary';
  /**
   * The Accept header: the media types the document declares for a `text` or `binary` answer, or
   * for a JSON one named other than `application/json` (vendor `+json` types); `application/json` otherwise.
   */
  accept?: string;
  /** A JSON body's Content-Type when the document declares another than `application/json` (a vendor `+json` type). */
  bodyType?: string;
  /** The curated fields of a JSON answer to keep (`openapi.config.json` `fields`); the rest is dropped before the result is made. */
  keep?: KeptFields;
  /**
   * The tool's result class, when its answers are lenient (`openapi.config.json` `lenient`): a JSON
   * answer that does not fit it is passed on as `unchecked` with a `note`, instead of failing.
   */
  lenient?: ClassType;
}
