import { catalogDeclarations, CodeMode, ProgramChecker, type DeclaredTool, type JsonSchema } from '../../src';
import { declarationOutline } from '../../src/declarations/declaration-outline';

/** A pull request list as Bitbucket's answers it: a result naming a pull request, which names accounts, which name links; each with an API's prose. */
const link: JsonSchema = { type: 'object', description: 'A link to a resource related to this object.', properties: { href: { type: 'string', format: 'uri' }, name: { type: 'string' } }, required: ['href', 'name'] };
const account: JsonSchema = {
  type: 'object',
  properties: { display_name: { type: 'string', description: 'The name shown. It is set by the account holder and may change at any time.' }, avatar: { $ref: '#/$defs/Link' } },
  required: ['display_name', 'avatar'],
};
const pullRequest: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: "The pull request's unique ID. Note that pull request IDs are only unique within their associated repository." },
    author: { $ref: '#/$defs/Account' },
    reviewers: { type: 'array', items: { $ref: '#/$defs/Account' } },
  },
  required: ['id', 'author', 'reviewers'],
};
const listPullRequests: DeclaredTool = {
  namespace: 'pullrequests',
  name: 'list_pull_requests',
  description: 'Pull requests of a repository.',
  inputSchema: {
    type: 'object',
    properties: {
      repo: { type: 'string', description: 'The repository slug. This can also be the UUID of the repository, surrounded by curly braces.' },
      filter: { $ref: '#/$defs/Filter' },
    },
    required: ['repo'],
    $defs: { Filter: { type: 'object', properties: { state: { enum: ['OPEN', 'MERGED'], description: 'Only pull requests in this state. Others are left out of the answer.' } } } },
  },
  outputSchema: {
    type: 'object',
    properties: { message: { type: 'string' }, values: { type: 'array', items: { $ref: '#/$defs/Pullrequest' } } },
    required: ['message', 'values'],
    $defs: { Pullrequest: pullRequest, Account: account, Link: link },
  },
};
const other: DeclaredTool = { namespace: 'pipelines', name: 'run_pipeline', inputSchema: { type: 'object', properties: {} }, outputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } };

describe("describe's declarations: arguments and results a named type deep, the rest by name", () => {
  const declarations = catalogDeclarations([listPullRequests, other]);

  it('writes a tool with its arguments and its result one named type deep, naming what it leaves out', () => {
    const text = declarationOutline(declarations, { functions: [{ namespace: 'pullrequests', fn: 'list_pull_requests' }], types: [] });
    expect(text).toContain('declare class ToolCallError');
    expect(text).toContain('function list_pull_requests(args: ListPullRequestsArgs): Promise<ListPullRequestsResult>;');
    // The arguments with their JSDoc as written (a call must be right the first time); the types they name, their first sentence.
    expect(text).toContain('repo: string; // The repository slug. This can also be the UUID of the repository, surrounded by curly braces.');
    // A one-line JSDoc after the line it documents, one space of indent a level.
    expect(text).toContain("interface Filter {\n  state?: 'OPEN' | 'MERGED'; // Only pull requests in this state.\n }");
    // The result and the type it names; the prose about each field cut to its first sentence.
    expect(text).toContain('interface Pullrequest {');
    expect(text).toContain("id: number; // The pull request's unique ID.");
    expect(text).not.toContain('Note that pull request IDs');
    expect(text).not.toContain('interface Account');
    expect(text).toContain('\n // Not written out here (describe them by name): Account.');
    expect(text).not.toContain('run_pipeline');
    expect(text).not.toContain('namespace api.pipelines');
  });

  it('reads compactly: a namespace per toolset, small undocumented types on one line, the framework\'s own fields explained once', () => {
    const failing: DeclaredTool = {
      namespace: 'pipelines',
      name: 'stop_pipeline',
      inputSchema: { type: 'object', properties: { uuid: { type: 'string' } }, required: ['uuid'] },
      outputSchema: {
        anyOf: [
          { type: 'object', properties: { message: { type: 'string', description: 'The answer in plain words.' }, stopped: { type: 'object', properties: { uuid: { type: 'string' }, at: { type: 'string' } }, required: ['uuid', 'at'] } }, required: ['message', 'stopped'] },
          { type: 'object', description: 'The tool could not do it.', properties: { error: { type: 'string', description: 'A kind.' }, detail: { type: 'string', description: 'Why.' } }, required: ['error', 'detail'] },
        ],
      },
    };
    const both = catalogDeclarations([listPullRequests, failing]);
    const text = declarationOutline(both, { functions: [{ namespace: 'pipelines', fn: 'stop_pipeline' }, { namespace: 'pullrequests', fn: 'list_pull_requests' }], types: [] });
    expect(text).toMatch(/^declare namespace api\.pullrequests \{\n interface /m);
    expect(text).toContain('declare namespace api.pipelines {');
    expect(text).toContain('\n interface StopPipelineArgs { uuid: string }\n');
    expect(text).toContain('\n type StopPipelineResult = { message: string; stopped: { uuid: string; at: string } } | { error: string; detail: string };\n');
    expect(text).not.toMatch(/The answer in plain words\.|A kind\.|Why\.|could not do it/);
    expect(text).toContain('Every result has message: the answer in plain words.');
    // The same declarations to TypeScript: a program checked against the catalog reads them as written here.
    const checker = new ProgramChecker(both.text);
    expect(checker.check("const r = await api.pipelines.stop_pipeline({ uuid: 'u' });\nreturn 'error' in r ? r.detail : r.stopped.at;")).toMatchObject({ ok: true });
    expect(checker.check("const r = await api.pipelines.stop_pipeline({ uuid: 'u' });\nreturn 'error' in r ? r.detail : r.stopped.when;")).toMatchObject({ ok: false });
    // And the answer is TypeScript of its own: a tool whose types it writes whole checks against it alone.
    const alone = declarationOutline(both, { functions: [{ namespace: 'pipelines', fn: 'stop_pipeline' }], types: [] });
    expect(new ProgramChecker(alone).check("const r = await api.pipelines.stop_pipeline({ uuid: 'u' });\nreturn 'error' in r ? r.detail : r.stopped.at;")).toMatchObject({ ok: true });
  });

  it("writes a request body's parts a named type deep and names the deeper ones, which the checker still knows", () => {
    // A comment whose body may carry its issue, which carries its repository (Bitbucket's, cut down).
    const repository: JsonSchema = { type: 'object', properties: { full_name: { type: 'string' }, links: { type: 'object', properties: Object.fromEntries(['self', 'html', 'avatar', 'clone', 'forks', 'hooks', 'watchers'].map((key) => [key, { $ref: '#/$defs/Link' }])) } } };
    const issue: JsonSchema = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, repository } };
    const comment: DeclaredTool = {
      namespace: 'issues',
      name: 'comment_on_issue',
      inputSchema: { type: 'object', properties: { issue_id: { type: 'integer' }, content: { type: 'object', properties: { raw: { type: 'string', description: 'The text as typed.' } }, required: ['raw'] }, issue }, required: ['issue_id', 'content'], $defs: { Link: link } },
      outputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    };
    const both = catalogDeclarations([comment]);
    // Objects of more than a few fields, or holding one, are named after where they are: a level of the body each.
    expect(both.text).toContain('issue?: CommentOnIssueArgsIssue;');
    expect(both.text).toContain('repository?: CommentOnIssueArgsIssueRepository;');
    expect(both.text).toContain('links?: CommentOnIssueArgsIssueRepositoryLinks;');
    const text = declarationOutline(both, { functions: [{ namespace: 'issues', fn: 'comment_on_issue' }], types: [] });
    expect(text).toContain('  content: {\n   raw: string; // The text as typed.\n  };');
    expect(text).toContain('interface CommentOnIssueArgsIssue { id?: number; title?: string; repository?: CommentOnIssueArgsIssueRepository }');
    expect(text).not.toContain('interface CommentOnIssueArgsIssueRepository ');
    expect(text).toContain('// Not written out here (describe them by name): CommentOnIssueArgsIssueRepository.');
    // A body that fills a deeper part is checked against it all the same.
    const checker = new ProgramChecker(both.text);
    expect(checker.check("return api.issues.comment_on_issue({ issue_id: 1, content: { raw: 'Any news?' }, issue: { repository: { full_name: 'acme/widgets' } } });")).toMatchObject({ ok: true });
    expect(checker.check("return api.issues.comment_on_issue({ issue_id: 1, content: { raw: 'Any news?' }, issue: { repository: { fullname: 'acme/widgets' } } });")).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining("'fullname' does not exist in type 'CommentOnIssueArgsIssueRepository'") }],
    });
  });

  it('writes a type asked for by name to the same depth, without ToolCallError again', () => {
    const text = declarationOutline(declarations, { functions: [], types: [{ namespace: 'pullrequests', name: 'Account' }] });
    expect(text).not.toContain('ToolCallError');
    expect(text).toContain('interface Account {');
    expect(text).toContain('display_name: string; // The name shown.');
    expect(text).toContain('interface Link {');
    expect(text).not.toContain('interface Pullrequest');
    expect(text).not.toContain('Not written out');
  });

  it("cuts a long tool description to its title and what it does, says where the rest is, and writes links as their words", () => {
    const pagination = '[Using pagination in the REST API](https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api)';
    const listIssues: DeclaredTool = {
      namespace: 'issues',
      name: 'list_issues',
      description: `List repository issues\n\nList issues in a [repository](https://docs.github.com/repositories). Only open issues will be listed.\n\n> [!NOTE]\n> GitHub's REST API considers every pull request an issue.\n\nThis endpoint supports the following custom media types:\n\n- **\`application/vnd.github.raw+json\`**: Returns the raw markdown body.`,
      inputSchema: { type: 'object', properties: { per_page: { type: 'integer', description: `The number of results per page (max 100). For more information, see "${pagination}."` } } },
      outputSchema: { type: 'object', properties: { message: { type: 'string' }, total: { type: 'integer', description: `How many there are (see ${pagination}).` } }, required: ['message', 'total'] },
    };
    const short: DeclaredTool = { namespace: 'issues', name: 'get_issue', description: 'Get an issue\n\nOne issue, by its number.', inputSchema: { type: 'object', properties: {} } };
    const issues = catalogDeclarations([listIssues, short]);
    const text = declarationOutline(issues, { functions: [{ namespace: 'issues', fn: 'list_issues' }, { namespace: 'issues', fn: 'get_issue' }], types: [] });
    expect(text).toContain(" /**\n  * List repository issues\n  * List issues in a repository. Only open issues will be listed.\n  * (More in search's catalog: description.)\n  */\n function list_issues(");
    expect(text).not.toContain('considers every pull request');
    expect(text).not.toContain('media types');
    // A description that fits is written as it is.
    expect(text).toContain(' /**\n  * Get an issue\n  *\n  * One issue, by its number.\n  */\n function get_issue(');
    // Links as their words, in arguments and results alike; the checker's declarations keep them.
    expect(text).toContain('per_page?: number; // The number of results per page (max 100). For more information, see "Using pagination in the REST API."');
    expect(text).toContain('total: number; // How many there are (see Using pagination in the REST API).');
    expect(text).not.toContain('https://');
    expect(issues.text).toContain('https://docs.github.com/repositories');
    // One paragraph too long, on one line or several: cut at the limit, saying where the rest is.
    const long = 'Runs the pipeline. '.repeat(30).trim();
    for (const description of [long, long.replace(/\. /g, '.\n')]) {
      const tool: DeclaredTool = { namespace: 'pipelines', name: 'run', description, inputSchema: { type: 'object', properties: {} } };
      const written = declarationOutline(catalogDeclarations([tool]), { functions: [{ namespace: 'pipelines', fn: 'run' }], types: [] });
      const doc = /\/\*\*\n([\s\S]*?)\n {2}\*\/\n function run\(/.exec(written)?.[1];
      expect(doc?.split('\n')).toEqual([`  * ${long.slice(0, 299)}…`, "  * (More in search's catalog: description.)"]);
    }
  });

  it('names types as the checker does: a misspelt field is refused naming the type describe lists', () => {
    const outline = declarationOutline(declarations, { functions: [{ namespace: 'pullrequests', fn: 'list_pull_requests' }], types: [] });
    const checked = new ProgramChecker(declarations.text).check("const { values } = await api.pullrequests.list_pull_requests({ repo: 'widgets' });\nreturn values.map((pr) => pr.author.displayname);");
    expect(checked).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining("Property 'displayname' does not exist on type 'Account'") }] });
    expect(outline).toMatch(/Not written out here \(describe them by name\): .*\bAccount\b/);
    // Read correctly, through a type describe did not write out, the program checks: the checker knows every type.
    expect(new ProgramChecker(declarations.text).check("const { values } = await api.pullrequests.list_pull_requests({ repo: 'widgets' });\nreturn values.map((pr) => pr.author.avatar.href);")).toMatchObject({ ok: true });
  });

  it('takes a tool by its name, its toolset, or the call path search gives, and a type by its name with or without its toolset', () => {
    const mode = new CodeMode([{ ...listPullRequests, namespace: 'pull-requests' }, other], undefined as never);
    for (const name of ['list_pull_requests', 'pull-requests.list_pull_requests', 'pull_requests.list_pull_requests', 'api.pull_requests.list_pull_requests', 'pull-requests']) {
      expect(mode.describe([name])).toMatchObject({ text: expect.stringContaining('function list_pull_requests('), unknown: [] });
    }
    for (const name of ['Account', 'pull_requests.Account', 'api.pull_requests.Account']) {
      expect(mode.describe([name])).toMatchObject({ text: expect.stringContaining('interface Account {'), unknown: [] });
    }
    expect(mode.describe(['pipelines.Account', 'Nope'])).toEqual({ text: '', unknown: ['pipelines.Account', 'Nope'] });
  });
});
