import type { ClassType } from '../types/class-type';

/** `@UseInterceptors(...)` on a toolset class (no `methodName`) or on one of its tools. */
export interface InterceptorMetadata {
  target: ClassType;
  methodName?: string;
  /** As written: the gate checks each is an interceptor class. */
  interceptors: readonly unknown[];
}
