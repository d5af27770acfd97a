/**
 * The third-party packages `@toolsets/core` runs on, as its package.json lists them (a spec keeps
 * the two in step): its own dependencies, the peers an app must own the single copy of, and the
 * optional peers `/metrics` needs (METRICS=on), which the generated containers and manifests turn on,
 * and the optional peers shared tasks need (REDIS_URL), which an app installs when it uses them.
 */
export const CORE_DEPENDENCIES = ['@modelcontextprotocol/node', '@opentelemetry/api', 'jose', 'lru-cache', 'minisearch', 'negotiator', 'stopword', 'typebox', 'wink-porter2-stemmer'] as const;
export const CORE_PEER_DEPENDENCIES = ['@modelcontextprotocol/server', 'class-transformer', 'class-validator', 'reflect-metadata', 'tsyringe'] as const;
export const CORE_METRICS_PEERS = ['@opentelemetry/exporter-prometheus', '@opentelemetry/sdk-metrics'] as const;
export const CORE_REDIS_PEERS = ['bullmq', 'ioredis'] as const;

/**
 * The Node versions toolsets runs on, as every package.json here declares them (a spec keeps them
 * in step): `require()` of ES modules (typebox, jose) without a flag, on the lines the ecosystem's
 * own engines accept (eslint's, for one, leave out 22.0–22.12).
 */
export const SUPPORTED_NODE = '^20.19.0 || >=22.13.0';
