import type { OperationCall } from './operation-call';
import { isObject, QUERY_DEFAULT, queryPairs } from './parameter-style';

/** A file field whose value is not base64 text. */
export class InvalidFile {
  constructor(readonly field: string) {}

  get message(): string {
    return `'${this.field}' is a file: give its bytes as a base64 string (A–Z, a–z, 0–9, +, /, = padding).`;
  }
}

/** An optional body given in part: some of its required fields are missing. */
export class IncompleteBody {
  constructor(readonly missing: readonly string[]) {}

  get message(): string {
    return `${this.missing.map((name) => `'${name}'`).join(', ')} ${this.missing.length === 1 ? 'is' : 'are'} required when any field of the request body is given; give ${this.missing.length === 1 ? 'it' : 'them'}, or leave the body's fields out entirely.`;
  }
}

/** What goes on the wire for a call's body, and its Content-Type (FormData sets its own, with the boundary). */
export interface EncodedBody {
  body: string | FormData;
  contentType?: string;
}

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$/;

/**
 * A call's body as the operation's media type wants it: JSON; `application/x-www-form-urlencoded`,
 * each field by its `encoding` style (Stripe's `deepObject` gives `metadata[plan]=pro`); or
 * `multipart/form-data`, file fields decoded from base64 into file parts. No body when the caller
 * gave none.
 */
export function requestBody(operation: OperationCall): EncodedBody | InvalidFile | IncompleteBody | undefined {
  if (operation.body === undefined) return undefined;
  const given = fieldsOf(operation.body);
  if (operation.optionalBody && given.length === 0 && isObject(operation.body)) return undefined;
  if (operation.bodyRequired && isObject(operation.body)) {
    const missing = operation.bodyRequired.filter((name) => (operation.body as Record<string, unknown>)[name] === undefined);
    if (missing.length > 0) return new IncompleteBody(missing);
  }
  switch (operation.bodyEncoding) {
    case 'form':
      return { body: formFields(operation).toString(), contentType: 'application/x-www-form-urlencoded' };
    case 'multipart':
      return multipart(operation);
    default:
      return { body: JSON.stringify(operation.body), contentType: operation.bodyType ?? 'application/json' };
  }
}

function formFields(operation: OperationCall): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of fieldsOf(operation.body)) for (const [key, text] of fieldPairs(operation, name, value)) form.append(key, text);
  return form;
}

/** A form field as name=value pairs, by the document's `encoding` for it (form, exploded, by default). */
function fieldPairs(operation: OperationCall, name: string, value: unknown): [string, string][] {
  return queryPairs(name, value, operation.bodyStyles?.[name] ?? QUERY_DEFAULT);
}

function multipart(operation: OperationCall): EncodedBody | InvalidFile {
  const form = new FormData();
  const files = new Set(operation.files ?? []);
  for (const [name, value] of fieldsOf(operation.body)) {
    if (files.has(name)) {
      if (typeof value !== 'string' || !BASE64.test(value)) return new InvalidFile(name);
      form.append(name, new Blob([Buffer.from(value, 'base64')], { type: 'application/octet-stream' }), name);
    } else {
      for (const [key, text] of fieldPairs(operation, name, value)) form.append(key, text);
    }
  }
  return { body: form };
}

function fieldsOf(body: unknown): [string, unknown][] {
  return isObject(body) ? Object.entries(body).filter(([, value]) => value !== undefined) : [['body', body]];
}
