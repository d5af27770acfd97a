import 'reflect-metadata';
import { buildServer, type ServerDefinition } from '@toolsets/core';
import { ConformanceToolset } from './conformance.toolset';
import { ConformanceRoundTripsToolset } from './round-trips.toolset';
import { ConformanceTasksToolset } from './tasks.toolset';

/** The fixtures the official conformance suite calls by name, served with the framework's public API only. */
export function buildServers(): ServerDefinition {
  return buildServer({ name: 'conformance', version: '0.1.0', toolsets: [ConformanceToolset, ConformanceTasksToolset, ConformanceRoundTripsToolset] });
}
