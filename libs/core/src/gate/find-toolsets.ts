import { metadataStorage } from '../metadata/metadata-storage';
import type { ClassType } from '../types/class-type';

/** The `@Toolset` classes among a module's exports (`require('@toolsets/hello')`), in export order. */
export function findToolsets(moduleExports: Readonly<Record<string, unknown>>): ClassType[] {
  return Object.values(moduleExports).filter(
    (value): value is ClassType => typeof value === 'function' && metadataStorage.getToolset(value as ClassType) !== undefined,
  );
}
