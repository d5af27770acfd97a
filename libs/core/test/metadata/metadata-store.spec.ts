import 'reflect-metadata';
import { buildServer, findToolsets, isolateMetadata, MetadataFormatConflictError, Tool, ToolResult, Toolset } from '../../src';
import { METADATA_FORMAT, metadataStorage } from '../../src/metadata/metadata-storage';

const STORE_KEY = Symbol.for('@toolsets/core:metadata-storage');

@Toolset({ name: 'outer', description: 'Declared before any isolation.' })
class OuterToolset {
  @Tool({ description: 'Pings.', returns: ToolResult })
  ping(): ToolResult {
    return { message: 'pong' };
  }
}

describe('the metadata store', () => {
  it('is one per process: a second copy of core records into the same store', () => {
    let second: typeof metadataStorage | undefined;
    jest.isolateModules(() => {
      second = (require('../../src/metadata/metadata-storage') as { metadataStorage: typeof metadataStorage }).metadataStorage;
    });
    expect(second).toBe(metadataStorage);
    expect(second!.getToolset(OuterToolset)?.options.name).toBe('outer');
  });

  it('refuses a copy of core that records another format, saying how to install one copy', () => {
    const shared = (globalThis as Record<symbol, { format: number }>)[STORE_KEY]!;
    const own = shared.format;
    shared.format = 999;
    try {
      let loading: unknown;
      jest.isolateModules(() => {
        try {
          require('../../src/metadata/metadata-storage');
        } catch (error) {
          loading = error;
        }
      });
      expect(loading).toBeInstanceOf(Error);
      expect((loading as Error).name).toBe(MetadataFormatConflictError.name);
      expect((loading as Error).message).toContain(`format 999 and ${METADATA_FORMAT}`);
      expect((loading as Error).message).toContain('npm dedupe');
    } finally {
      shared.format = own;
    }
  });

  it('can be isolated for a test: only classes declared inside count, and the earlier ones come back', () => {
    const restore = isolateMetadata();
    try {
      @Toolset({ name: 'inner', description: 'Declared in isolation.' })
      class InnerToolset {
        @Tool({ description: 'Echoes.', returns: ToolResult })
        echo(): ToolResult {
          return { message: 'echo' };
        }
      }
      expect(findToolsets({ OuterToolset, InnerToolset })).toEqual([InnerToolset]);
      expect([...buildServer({ name: 'inner', version: '1', toolsets: [InnerToolset] }).catalog.tools.keys()]).toEqual(['echo']);
    } finally {
      restore();
    }
    expect(findToolsets({ OuterToolset })).toEqual([OuterToolset]);
  });
});
