import { getMetadataStorage } from 'class-validator';
import type { ClassType } from '../types/class-type';
import { validationMetadatasOf } from './validator-keywords';

/** Beyond this many DTO classes the check samples this many, evenly spread, to keep startup linear. */
const MAX_CHECKED = 200;

/**
 * `validationMetadatasOf` reads class-validator's private per-class map, because the public method
 * scans every decorated class per call and makes large catalogs quadratic. At startup this compares
 * the two on the catalog's classes (all of them up to 200, else 200 spread evenly) and throws, naming
 * the class, if a class-validator upgrade changed what the map holds.
 */
export function checkValidationShortcut(classes: readonly ClassType[]): void {
  const step = Math.max(1, Math.ceil(classes.length / MAX_CHECKED));
  const storage = getMetadataStorage();
  for (let i = 0; i < classes.length; i += step) {
    const cls = classes[i];
    const shortcut = validationMetadatasOf(cls);
    const reference = storage.getTargetValidationMetadatas(cls, '', true, false);
    const same = shortcut.length === reference.length && reference.every((metadata) => shortcut.includes(metadata));
    if (!same) {
      throw new Error(
        `@toolsets/core reads class-validator's metadata through a shortcut that no longer matches class-validator's own ` +
          `getTargetValidationMetadatas for class '${cls.name}' (${shortcut.length} vs ${reference.length} rules). ` +
          'The installed class-validator changed its storage: install the version @toolsets/core pins (0.15.x) and report the upgrade.',
      );
    }
  }
}
