import 'reflect-metadata';
import { buildServer, Field, Tool, ToolResult, Toolset } from '../../src';
import { MAX_QUERY_TERMS, searchTerms, ToolSearch } from '../../src/selection/tool-search';

class Done extends ToolResult {
  @Field()
  ok!: boolean;
}

class RepoArgs {
  @Field({ description: 'The repository, as owner/name.' })
  repo!: string;
}

const done = (): Done => ({ message: '', ok: true });

@Toolset({ name: 'issues', description: 'Issues.' })
class IssuesToolset {
  @Tool({ name: 'issues_create', description: 'Create an issue.', args: RepoArgs, returns: Done })
  create(): Done {
    return done();
  }

  @Tool({ name: 'issues_get', description: 'Get an issue.', args: RepoArgs, returns: Done })
  get(): Done {
    return done();
  }

  @Tool({ name: 'issues_delete', description: 'Delete an issue.', args: RepoArgs, returns: Done })
  remove(): Done {
    return done();
  }

  @Tool({ name: 'issues_list_for_repo', description: 'List issues in a repository.', args: RepoArgs, returns: Done })
  list(): Done {
    return done();
  }
}

@Toolset({ name: 'accounts', description: 'Accounts.' })
class AccountsToolset {
  @Tool({ name: 'orgs_get', description: 'Get an org by its login.', returns: Done })
  org(): Done {
    return done();
  }

  @Tool({ name: 'teams_get', description: 'Get a team by its name.', returns: Done })
  team(): Done {
    return done();
  }
}

const catalog = buildServer({ name: 's', version: '1', toolsets: [IssuesToolset, AccountsToolset], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }).catalog;
const search = new ToolSearch(catalog.tools.values());
const everything = () => true;
const first = (query: string) => search.search(query, everything, 5)[0]?.name;

describe('tool search', () => {
  it('searches each word of a query once, drops words too long to be a tool word, and keeps at most 12 words', () => {
    expect(searchTerms(`${'issue '.repeat(100)}Issue ISSUE`)).toEqual(['issue']);
    expect(searchTerms(`list ${'x'.repeat(500)} issues`)).toEqual(['list', 'issues']);
    const many = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    expect(searchTerms(many)).toHaveLength(MAX_QUERY_TERMS);
    const all = (name: string) => name.length > 0;
    // A 500-character query of one repeated word once cost 330 ms of CPU on GitHub's catalog: it is the one-word search now.
    expect(search.search('issue '.repeat(83), all, 10)).toEqual(search.search('issue', all, 10));
    expect(search.search('x'.repeat(500), all, 10)).toEqual([]);
  });

  it('finds an operation by the verb people use for it: open and add mean create, show means get, remove means delete', () => {
    expect(first('open an issue')).toBe('issues_create');
    expect(first('show an issue')).toBe('issues_get');
    expect(first('remove an issue')).toBe('issues_delete');
  });

  it('folds plural and tense endings, and the long spellings of org and repo', () => {
    expect(first('listing issues')).toBe('issues_list_for_repo');
    expect(first('get an organization')).toBe('orgs_get');
    expect(first('issues of a repo')).toBe('issues_list_for_repo');
  });

  it('ranks only the tools the caller may see, and at most the limit', () => {
    expect(search.search('issue', (name) => name !== 'issues_create', 5).map((hit) => hit.name)).not.toContain('issues_create');
    expect(search.search('issue repository org', everything, 2)).toHaveLength(2);
    expect(search.search('zzzz qqqq', everything, 5)).toEqual([]);
  });
});
