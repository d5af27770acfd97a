import type { ExecutorContext } from '@nx/devkit';
import { formatOutline, outlineLibrary } from '../../openapi/library-outline';
import { CONFIG_FILE, DOCUMENT_FILE, libraryOnDisk } from '../../openapi/library-files';
import { flushed } from '../../utils/flushed-output';
import type { OpenApiPathsExecutorSchema } from './schema';

/**
 * `openapi-paths`: what a generated library's `openapi.config.json` can curate, as the config names
 * it: each included operation's `tools` key and tool name, its arguments (for `arguments`), and every
 * path of its answer (for `fields`), from the library's own document with its overlay applied.
 */
export default async function openApiPathsExecutor(options: OpenApiPathsExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  try {
    const { projectRoot, config, document } = await libraryOnDisk(context, 'openapi-paths');
    const wanted = (options.tool ?? '').split(',').map((pattern) => pattern.trim()).filter(Boolean);
    const operations = (await outlineLibrary(document, config)).filter((op) => wanted.length === 0 || wanted.some((pattern) => matches(pattern, op.key) || matches(pattern, op.tool)));
    if (operations.length === 0) {
      console.error(`No included operation of ${projectRoot}/${DOCUMENT_FILE} matches --tool=${options.tool}: give an operationId or tool name (* matches any characters).`);
      return flushed({ success: false });
    }
    console.log(formatOutline(operations).join('\n'));
    console.log(`\n${operations.length} operation${operations.length === 1 ? '' : 's'}. In ${CONFIG_FILE}, "tools"."<key>"."arguments" takes the argument names above and "fields" the paths.`);
    return flushed({ success: true });
  } catch (error) {
    console.error((error as Error).message);
    return flushed({ success: false });
  }
}

function matches(pattern: string, name: string): boolean {
  const expression = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`);
  return expression.test(name);
}
