import { join, resolve } from 'node:path';

/**
 * What the bench shares with the workspace plugin's `openapi-measure` target, read from the
 * plugin's source at run time (the bench builds file by file, so it cannot import across projects):
 * the arguments a model would make from a schema, and the loopback upstream that answers with
 * samples of a document's responses.
 */
const pluginSource = (file: string) => join(resolve(__dirname, '../../../..'), 'tools/workspace-plugin/src/measure', file);

export const argumentsFor = (require(pluginSource('arguments-for.cjs')) as { argumentsFor: (schema: Record<string, unknown>) => unknown }).argumentsFor;

type StartSampledUpstream = (document: { paths?: Record<string, Record<string, unknown>> }) => Promise<{ url: string; close(): Promise<void> }>;

export const startSampledUpstream: StartSampledUpstream = (document) => {
  require('@swc-node/register');
  return (require(pluginSource('sampled-upstream.ts')) as { startSampledUpstream: StartSampledUpstream }).startSampledUpstream(document);
};
