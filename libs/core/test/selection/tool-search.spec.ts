import 'reflect-metadata';
import { buildServer, Field, Tool, ToolResult, Toolset } from '../../src';
import { firstSentence, MAX_QUERY_TERMS, searchTerms } from '../../src/selection/search-text';
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

class ContactArgs {
  @Field({ description: 'Where to send it: an email address, or a phone number to text. Picks up where the last one left off.' })
  to!: string;
}

@Toolset({ name: 'accounts', description: 'Accounts.' })
class AccountsToolset {
  @Tool({ name: 'orgs_get', description: 'Get an org by its login.', returns: Done })
  org(): Done {
    return done();
  }

  @Tool({ name: 'teams_get', description: 'Get a team by its name.', keywords: ['squad', 'crew'], returns: Done })
  team(): Done {
    return done();
  }

  @Tool({ name: 'charges_refund', description: 'Reverse a charge.', keywords: ['refund', 'money back'], returns: Done })
  refund(): Done {
    return done();
  }

  @Tool({ name: 'send_invite', description: 'Invite a person to the account.', args: ContactArgs, returns: Done })
  invite(): Done {
    return done();
  }

  @Tool({ name: 'users_update_email', description: "Change a user's email address.", returns: Done })
  email(): Done {
    return done();
  }

  @Tool({ name: 'meetings', description: 'Meetings of a user.', returns: Done })
  meetings(): Done {
    return done();
  }
}

const catalog = buildServer({ name: 's', version: '1', toolsets: [IssuesToolset, AccountsToolset], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }).catalog;
const search = new ToolSearch(catalog.tools.values());
const everything = () => true;
const first = (query: string) => search.search(query, everything, 5)[0]?.name;

describe('tool search', () => {
  it('searches each word of a query once, drops words too long to be a tool word, and keeps at most 12 words', () => {
    expect(searchTerms(`${'issue '.repeat(100)}Issue ISSUES`)).toEqual(['issu']);
    expect(searchTerms(`list ${'x'.repeat(500)} issues`)).toEqual(['list', 'issu']);
    const many = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    expect(searchTerms(many)).toHaveLength(MAX_QUERY_TERMS);
    const all = (name: string) => name.length > 0;
    // A 500-character query of one repeated word once cost 330 ms of CPU on GitHub's catalog: it is the one-word search now.
    expect(search.search('issue '.repeat(83), all, 10)).toEqual(search.search('issue', all, 10));
    expect(search.search('x'.repeat(500), all, 10)).toEqual([]);
  });

  it('normalises index and query alike: a real stemmer, stop words out, possessives off', () => {
    // Porter2 folds both; the hand-written stemmer this replaced made `meeting` "meet" and `meetings` "meeting".
    expect(searchTerms('meeting')).toEqual(searchTerms('meetings'));
    expect(searchTerms("the user's meetings")).toEqual(['user', 'meet']);
    expect(searchTerms('what is in their account')).toEqual(['account']);
    expect(first('list my meeting')).toBe('meetings');
    expect(first("the user's email")).toBe('users_update_email');
  });

  it('knows no catalog vocabulary itself: a tool brings its own words with keywords', () => {
    // `organization` is not `org` unless a tool says so; core used to carry GitHub's word tables.
    expect(first('an organization')).toBeUndefined();
    expect(first('give the buyer their money back')).toBe('charges_refund');
    expect(first('get the squad')).toBe('teams_get');
  });

  it('ranks a tool that names the thing above one whose argument text mentions it', () => {
    expect(search.search('email', everything, 5).map((hit) => hit.name)).toEqual(['users_update_email', 'send_invite']);
    expect(search.search('up', everything, 5)).toEqual([]);
  });

  it("never drops a word that names one of the catalog's tools: 'like' is a stop word, but not beside like_video", () => {
    @Toolset({ name: 'videos', description: 'Videos.' })
    class VideosToolset {
      @Tool({ name: 'like_video', description: 'Add the video to the liked ones.', returns: Done })
      like(): Done {
        return done();
      }

      @Tool({ name: 'make_playlist', description: 'Start a playlist.', returns: Done })
      make(): Done {
        return done();
      }
    }
    const videos = buildServer({ name: 'v', version: '1', toolsets: [VideosToolset], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }).catalog;
    const inVideos = new ToolSearch(videos.tools.values());
    expect(inVideos.search('like', everything, 5).map((hit) => hit.name)).toEqual(['like_video']);
    expect(inVideos.search('make', everything, 5).map((hit) => hit.name)).toEqual(['make_playlist']);
    // Elsewhere, and for words no tool is named with, stop words are still dropped.
    expect(search.search('like', everything, 5)).toEqual([]);
    expect(inVideos.search('the', everything, 5)).toEqual([]);
  });

  it('ranks only the tools the caller may see, and at most the limit', () => {
    expect(search.search('issue', (name) => name !== 'issues_create', 5).map((hit) => hit.name)).not.toContain('issues_create');
    expect(search.search('issue repository team', everything, 2)).toHaveLength(2);
    expect(search.search('zzzz qqqq', everything, 5)).toEqual([]);
  });

  it("summarises a description by its first sentence, cut at a word within the limit", () => {
    expect(firstSentence('List issues. Only open ones.')).toBe('List issues.');
    expect(firstSentence('Version 2.1 of the API.\nMore.')).toBe('Version 2.1 of the API.');
    expect(firstSentence(`${'word '.repeat(60)}end.`, 40)).toBe(`${'word '.repeat(7).trim()}…`);
    expect(firstSentence('No full stop')).toBe('No full stop');
  });
});
