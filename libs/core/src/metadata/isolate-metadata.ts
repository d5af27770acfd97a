import { metadataStorage } from './metadata-storage';

/**
 * For tests: from now on decorators record into an empty store, so `buildServer` and the gate see
 * only the classes declared after this call. Call the returned function (in `afterEach`) to put
 * back what was recorded before.
 */
export function isolateMetadata(): () => void {
  return metadataStorage.isolate();
}
