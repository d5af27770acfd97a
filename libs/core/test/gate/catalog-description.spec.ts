import 'reflect-metadata';
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
});
