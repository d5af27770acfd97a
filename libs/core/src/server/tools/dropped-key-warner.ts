import type { CompiledTool, OutputArm } from '../../compiled/tool-catalog';
import type { Logger } from '../logging/logger';

/** Called with each result before projection, in development, to report dropped keys once. */
export type DroppedKeyWarner = (tool: CompiledTool, arm: OutputArm, returned: unknown) => void;

/** At most this many distinct (tool, key) warnings are remembered, so a bug cannot grow memory. */
const MAX_REMEMBERED = 1_000;
/** Each tool's first results are all checked; after these, one in SAMPLE_EVERY. */
const CHECK_ALL_FIRST = 100;
const SAMPLE_EVERY = 32;

/**
 * Whether to warn about dropped keys: in development, that is `NODE_ENV` other than `production`,
 * or whenever `TOOLSETS_DEBUG` is set.
 */
export function warnsDroppedKeys(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['NODE_ENV'] !== 'production' || Boolean(env['TOOLSETS_DEBUG']);
}

/**
 * Logs, once per tool and key path, that a returned key was not declared and so was not sent. A
 * tool's first CHECK_ALL_FIRST results are all walked, then one in SAMPLE_EVERY: a misspelled key
 * shows on the first call, and a development server under load does not pay a full walk of every
 * large result.
 */
export function droppedKeyWarner(logger: Logger): DroppedKeyWarner {
  const seen = new Set<string>();
  const checked = new Map<string, number>();
  return (tool, arm, returned) => {
    const count = (checked.get(tool.name) ?? 0) + 1;
    checked.set(tool.name, count);
    if (count > CHECK_ALL_FIRST && count % SAMPLE_EVERY !== 0) return;
    for (const key of arm.droppedKeys(returned)) {
      const id = `${tool.name}\u0000${key}`;
      if (seen.has(id) || seen.size >= MAX_REMEMBERED) continue;
      seen.add(id);
      logger.warn('tool returned a key its result class does not declare; it was dropped', {
        tool: tool.name,
        result: arm.model.name,
        key,
        fix: tool.toolset.generatedFrom
          ? `the upstream API sent a key its document does not declare: add it to the response's schema in the library's ${tool.toolset.generatedFrom} and run npx nx sync (the generated ${arm.model.name} is rewritten from them), or leave it out; this warning is off when NODE_ENV=production`
          : `declare it with @Field() on ${arm.model.name} (or the nested class), or fix its spelling; this warning is off when NODE_ENV=production`,
      });
    }
  };
}
