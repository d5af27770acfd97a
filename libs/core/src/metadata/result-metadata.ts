import type { ClassType } from '../types/class-type';
export interface ResultOptions {
  /** Advertised as the output schema's `description`. */
  description?: string;
}

export interface ResultMetadata {
  target: ClassType;
  options: ResultOptions;
}
