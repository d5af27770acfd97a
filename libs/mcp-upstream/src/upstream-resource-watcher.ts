import { UriTemplate } from '@modelcontextprotocol/client';
import type { ResourceWatcher } from '@toolsets/core';
import type { UpstreamSettings } from './upstream-settings';

/**
 * The `ResourceWatcher` a generated library registers under `RESOURCE_WATCHERS`: it hands a URI to
 * the library's `McpUpstream` (resolved only then) when the URI is one of the upstream's resources
 * the library serves, so a library imported but not served, or its settings, never get in the way
 * of another's subscriptions.
 */
export function upstreamResourceWatcher(settings: Pick<UpstreamSettings, 'watchable'>, upstream: () => ResourceWatcher): ResourceWatcher {
  return {
    watch: (uri, changed) => (isWatchable(settings.watchable, uri) ? upstream().watch(uri, changed) : undefined),
    unwatch: (uri, changed) => (isWatchable(settings.watchable, uri) ? upstream().unwatch(uri, changed) : undefined),
  };
}

/** Whether `uri` is one of the upstream's resources the library serves, or matches one of its templates (one that does not parse matches nothing). */
export function isWatchable(watchable: UpstreamSettings['watchable'], uri: string): boolean {
  if (watchable?.uris?.includes(uri)) return true;
  return (watchable?.uriTemplates ?? []).some((template) => {
    try {
      return new UriTemplate(template).match(uri) !== null;
    } catch {
      return false;
    }
  });
}
