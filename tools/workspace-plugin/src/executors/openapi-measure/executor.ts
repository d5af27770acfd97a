import type { ExecutorContext } from '@nx/devkit';
import { formatMeasures, measureCatalog, uncurated } from '../../measure/measure-library';
import { startSampledUpstream } from '../../measure/sampled-upstream';
import { CONFIG_FILE, libraryOnDisk } from '../../openapi/library-files';
import { flushed } from '../../utils/flushed-output';
import type { OpenApiMeasureExecutorSchema } from './schema';

/**
 * `openapi-measure`: what the curation in `openapi.config.json` does for a model. The library is
 * generated twice from its own document (overlay applied), as the document gives the tools and
 * curated, each served and every tool called once against a mock of the document (built in: each
 * operation answers a sample of its documented response; or `--mock=<url>`), with the arguments a
 * model would make from the advertised schema: tools, tools/list bytes, typed answers, answer bytes.
 */
export default async function openApiMeasureExecutor(options: OpenApiMeasureExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  if (options.mock !== undefined && !/^https?:\/\/[^\s]+$/.test(options.mock)) {
    console.error(`--mock=${options.mock} is not an http(s) URL: give the base URL the mock serves the document's paths at, such as http://127.0.0.1:4010.`);
    return flushed({ success: false });
  }
  let mock: { url: string; close(): Promise<void> } | undefined;
  try {
    const { projectName, config, document } = await libraryOnDisk(context, 'openapi-measure');
    mock = options.mock === undefined ? await startSampledUpstream(document as Parameters<typeof startSampledUpstream>[0]) : undefined;
    const baseUrl = options.mock ?? mock!.url;
    const plain = await measureCatalog(context.root, config.name, document, uncurated(config), baseUrl);
    const curated = await measureCatalog(context.root, config.name, document, config, baseUrl);
    console.log(
      `${projectName}, as its document gives the tools and as ${CONFIG_FILE} curates them; every tool called once with the arguments a model would make from its schema, against ${options.mock ?? 'a sample upstream (each operation answers a sample of its documented response)'}:\n`,
    );
    console.log(formatMeasures(plain, curated).join('\n'));
    return flushed({ success: true });
  } catch (error) {
    console.error((error as Error).message);
    return flushed({ success: false });
  } finally {
    await mock?.close();
  }
}
