import type { OperationCall } from './operation-call';
import { pathText, QUERY_DEFAULT, queryPairs, SIMPLE_DEFAULT } from './parameter-style';

/** Segments the URL parser resolves or collapses: as a path parameter's whole segment they would change the resource called. */
const UNSAFE_SEGMENTS = new Set(['', '.', '..']);

/** A path parameter whose value cannot stand as one segment of the path. */
export class UnsafePathParameter {
  constructor(
    readonly names: readonly string[],
    readonly segment: string,
    readonly template: string,
  ) {}

  get message(): string {
    if (this.names.length === 0) return `The path template ${this.template} leaves the API's base path; fix the operation's path in the document.`;
    const which = this.names.map((name) => `'${name}'`).join(' and ');
    const shown = this.segment === '' ? 'empty' : `'${this.segment}'`;
    return `${which} would make the path segment ${shown} in ${this.template}: give a value that is not empty, '.' or '..'.`;
  }
}

/**
 * The URL of one call: the operation's path under the base URL's path, each path parameter
 * encoded as one segment, the query appended. A parameter that would leave its segment (an empty
 * value, `.` or `..`, which the URL parser resolves) is refused, and the result never leaves the
 * base URL's origin or path.
 */
export function requestUrl(baseUrl: URL, operation: OperationCall): URL | UnsafePathParameter {
  const basePath = baseUrl.pathname.replace(/\/+$/, '');
  const segments: string[] = [];
  for (const template of operation.path.split('/')) {
    const names: string[] = [];
    const segment = template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
      names.push(name);
      return pathText(name, operation.pathParams?.[name], operation.styles?.[name] ?? SIMPLE_DEFAULT);
    });
    if (names.length > 0 && UNSAFE_SEGMENTS.has(segment)) return new UnsafePathParameter(names, segment, operation.path);
    segments.push(segment);
  }
  const url = new URL(baseUrl.href);
  url.pathname = basePath + segments.join('/');
  if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return new UnsafePathParameter([], url.pathname, operation.path);
  for (const [name, value] of Object.entries(operation.query ?? {})) {
    for (const [key, text] of queryPairs(name, value, operation.styles?.[name] ?? QUERY_DEFAULT)) url.searchParams.append(key, text);
  }
  // URLSearchParams writes spaces as `+`; a `spaceDelimited` list is `%20`-separated, which every server reads.
  url.search = url.search.replace(/\+/g, '%20');
  return url;
}
