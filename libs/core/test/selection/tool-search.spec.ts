import 'reflect-metadata';
import { buildServer, Field, Tool, ToolResult, Toolset } from '../../src';
import { ToolSearch } from '../../src/selection/tool-search';

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
