import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { buildServer, describeCatalog, Field, findToolsets, Tool, ToolError, ToolResult, Toolset } from '../../src';

class Book {
  @Field()
  title!: string;
}
class SearchResult extends ToolResult {
  @Field(() => [Book])
  books!: Book[];

  @Field()
  @IsOptional()
  publishedAfter?: Date;
}
class SearchArgs {
  @Field()
  query!: string;

  @Field()
  @IsOptional()
  limit?: number;
}

@Toolset({ name: 'library', credentialHeaders: ['x-library-key'] })
class LibraryToolset {
  @Tool({ description: 'Search.', args: SearchArgs, returns: [SearchResult, ToolError] })
  search(): SearchResult {
    return { message: '', books: [] };
  }
}

class TrimmedArgs {
  @Field()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  query!: string;
}

@Toolset({ name: 'paths' })
class PathsToolset {
  @Tool({ description: 'Compiled.', args: SearchArgs, returns: SearchResult })
  plain(): SearchResult {
    return { message: '', books: [] };
  }

  @Tool({ description: 'Through class-transformer.', args: TrimmedArgs, returns: SearchResult })
  trimmed(): SearchResult {
    return { message: '', books: [] };
  }

  @Tool({ description: 'No arguments.', returns: SearchResult })
  none(): SearchResult {
    return { message: '', books: [] };
  }
}

class NotAToolset {}

describe('the contract summary', () => {
  it('finds the @Toolset classes among module exports', () => {
    expect(findToolsets({ LibraryToolset, NotAToolset, SearchResult, version: '1' })).toEqual([LibraryToolset]);
  });

  it('prints each tool with its arguments and both output arms', () => {
    const { catalog } = buildServer({ name: 'library', version: '1', toolsets: [LibraryToolset] });
    expect(describeCatalog(catalog)).toBe(
      [
        'toolset library (credential headers: x-library-key)',
        '  search(query, limit?) -> SearchResult { message: string, books: Book[], publishedAfter?: string<date-time> } | ToolError { error: string, detail: string }',
        '1 tool follows the contract.',
      ].join('\n'),
    );
  });

  it('says, when verbose, which way each tool\'s arguments become its DTO and why', () => {
    const { catalog } = buildServer({ name: 'paths', version: '1', toolsets: [PathsToolset] });
    const lines = describeCatalog(catalog, { verbose: true }).split('\n');
    expect(lines.filter((line) => line.startsWith('    '))).toEqual([
      '    arguments: compiled instance builder',
      "    arguments: class-transformer's plainToInstance, because 'query' of 'TrimmedArgs' has @Transform",
    ]);
    expect(describeCatalog(catalog)).not.toContain('arguments:');
  });

  it('names a class shared through $defs by its class name, recursive ones too', () => {
    class Category {
      @Field()
      name!: string;

      @Field(() => [Category])
      children!: Category[];
    }
    class ShelfResult extends ToolResult {
      @Field(() => Category)
      main!: Category;

      @Field(() => Category)
      @IsOptional()
      other?: Category;
    }
    @Toolset({ name: 'shelves' })
    class ShelfToolset {
      @Tool({ description: 'Shelf.', returns: ShelfResult })
      shelf(): ShelfResult {
        return { message: '', main: { name: '', children: [] } };
      }
    }
    const { catalog } = buildServer({ name: 'shelves', version: '1', toolsets: [ShelfToolset] });
    expect(describeCatalog(catalog)).toContain('shelf() -> ShelfResult { message: string, main: Category, other?: Category }');
  });
});
