import type { ClassType } from '../types/class-type';

/** The untyped view of `@Resource` and `@ResourceTemplate` options that the gate reads. */
export interface ResourceOptionsRecord {
  /** A fixed resource's URI, e.g. `docs://readme` (`@Resource`). */
  uri?: string;
  /** An RFC 6570 template, e.g. `users://{id}/profile` (`@ResourceTemplate`). */
  uriTemplate?: string;
  /** Defaults to the method name in snake_case. */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** For a template: the DTO its URI variables fill (string fields). */
  args?: ClassType;
}

export interface ResourceMetadata {
  target: ClassType;
  methodName: string;
  kind: 'resource' | 'template';
  options: ResourceOptionsRecord;
}
