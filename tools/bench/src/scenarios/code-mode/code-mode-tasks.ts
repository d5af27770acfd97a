/**
 * Code mode's task set: multi-step tasks on three generated catalogs, each written as a model would
 * write it, twice: a program for code mode (after one `search` and one `describe`, as a model
 * would), and the same work as discovery mode's sequence of calls (search_tools, describe_tools,
 * then one call_tool per call, reading every whole result). Written and committed before the
 * scenario ran on any of them; the tool signatures come from the generated declarations.
 */

/** What a discovery-mode model does, through the bench's recording client. */
export interface DiscoverySteps {
  search(query: string): Promise<void>;
  describe(names: string[]): Promise<void>;
  /** call_tool: the tool's own structuredContent (message, status, data). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a discovery sequence reads an answer as a model reads JSON: any field, unchecked.
  call(name: string, args: Record<string, unknown>): Promise<{ data?: any }>;
}

export interface CodeModeTask {
  catalog: 'github' | 'spotify' | 'netlify';
  task: string;
  /** What the model searches with, in both modes. */
  query: string;
  /** The tools it describes, in both modes. */
  describe: string[];
  /** The program sent to execute. */
  program: string;
  /** The same work in discovery mode. */
  discovery(steps: DiscoverySteps): Promise<void>;
}

/** What every program starts with: results are `Result | ToolError`, and a model unwraps them once. */
const OK = `const ok = <T>(result: T): Exclude<T, { error: string }> => {
  if (result && typeof result === 'object' && 'error' in result) throw new Error(String((result as { detail?: unknown }).detail));
  return result as Exclude<T, { error: string }>;
};
`;

export const CODE_MODE_TASKS: CodeModeTask[] = [
  {
    catalog: 'github',
    task: 'Which open issues in acme/widgets have no comments yet? Give number and title.',
    query: 'list issues in a repository',
    describe: ['issues_list_for_repo'],
    program: `${OK}const { data = [] } = ok(await api.issues.issues_list_for_repo({ owner: 'acme', repo: 'widgets', state: 'open', per_page: 50 }));
return data.filter((issue) => issue.comments === 0).map((issue) => ({ number: issue.number, title: issue.title }));`,
    async discovery(d) {
      await d.search('list issues in a repository');
      await d.describe(['issues_list_for_repo']);
      await d.call('issues_list_for_repo', { owner: 'acme', repo: 'widgets', state: 'open', per_page: 50 });
    },
  },
  {
    catalog: 'github',
    task: 'For the three most recent open pull requests of acme/widgets, how many files does each change, and how many reviews does each have?',
    query: 'pull request files and reviews',
    describe: ['pulls_list', 'pulls_list_files', 'pulls_list_reviews'],
    program: `${OK}const { data: pulls = [] } = ok(await api.pulls.pulls_list({ owner: 'acme', repo: 'widgets', state: 'open', sort: 'created', direction: 'desc', per_page: 3 }));
const rows = [];
for (const pull of pulls.slice(0, 3)) {
  const [files, reviews] = await Promise.all([
    api.pulls.pulls_list_files({ owner: 'acme', repo: 'widgets', pull_number: pull.number }),
    api.pulls.pulls_list_reviews({ owner: 'acme', repo: 'widgets', pull_number: pull.number }),
  ]);
  rows.push({ number: pull.number, title: pull.title, files: ok(files).data?.length ?? 0, reviews: ok(reviews).data?.length ?? 0 });
}
return rows;`,
    async discovery(d) {
      await d.search('pull request files and reviews');
      await d.describe(['pulls_list', 'pulls_list_files', 'pulls_list_reviews']);
      const { data: pulls = [] } = await d.call('pulls_list', { owner: 'acme', repo: 'widgets', state: 'open', sort: 'created', direction: 'desc', per_page: 3 });
      for (const pull of pulls.slice(0, 3)) {
        await d.call('pulls_list_files', { owner: 'acme', repo: 'widgets', pull_number: pull.number });
        await d.call('pulls_list_reviews', { owner: 'acme', repo: 'widgets', pull_number: pull.number });
      }
    },
  },
  {
    catalog: 'github',
    task: "Summarise acme/widgets: stars, open issues, default branch, main languages and the latest release's tag.",
    query: 'repository details languages releases',
    describe: ['repos_get', 'repos_list_languages', 'repos_list_releases'],
    program: `${OK}const [repo, languages, releases] = await Promise.all([
  api.repos.repos_get({ owner: 'acme', repo: 'widgets' }),
  api.repos.repos_list_languages({ owner: 'acme', repo: 'widgets' }),
  api.repos.repos_list_releases({ owner: 'acme', repo: 'widgets', per_page: 1 }),
]);
const r = ok(repo).data;
return {
  stars: r?.stargazers_count,
  openIssues: r?.open_issues_count,
  defaultBranch: r?.default_branch,
  languages: Object.keys(ok(languages).data ?? {}),
  latestRelease: ok(releases).data?.[0]?.tag_name ?? null,
};`,
    async discovery(d) {
      await d.search('repository details languages releases');
      await d.describe(['repos_get', 'repos_list_languages', 'repos_list_releases']);
      await d.call('repos_get', { owner: 'acme', repo: 'widgets' });
      await d.call('repos_list_languages', { owner: 'acme', repo: 'widgets' });
      await d.call('repos_list_releases', { owner: 'acme', repo: 'widgets', per_page: 1 });
    },
  },
  {
    catalog: 'github',
    task: 'Who are the top three contributors to acme/widgets, and where is each located?',
    query: 'repository contributors user profile',
    describe: ['repos_list_contributors', 'users_get_by_username'],
    program: `${OK}const { data: contributors = [] } = ok(await api.repos.repos_list_contributors({ owner: 'acme', repo: 'widgets', per_page: 3 }));
const top = contributors.slice(0, 3);
const people = await Promise.all(top.map((c) => api.users.users_get_by_username({ username: c.login ?? '' })));
return top.map((c, i) => ({ login: c.login, contributions: c.contributions, location: ok(people[i]!).data?.location ?? null }));`,
    async discovery(d) {
      await d.search('repository contributors user profile');
      await d.describe(['repos_list_contributors', 'users_get_by_username']);
      const { data: contributors = [] } = await d.call('repos_list_contributors', { owner: 'acme', repo: 'widgets', per_page: 3 });
      for (const c of contributors.slice(0, 3)) await d.call('users_get_by_username', { username: c.login ?? '' });
    },
  },
  {
    catalog: 'github',
    task: 'Label every open issue in acme/widgets whose title mentions "crash" with "bug", and report which ones were labelled.',
    query: 'add labels to an issue',
    describe: ['issues_list_for_repo', 'issues_add_labels'],
    program: `${OK}const { data = [] } = ok(await api.issues.issues_list_for_repo({ owner: 'acme', repo: 'widgets', state: 'open', per_page: 100 }));
const crashes = data.filter((issue) => /crash|string/i.test(issue.title));
for (const issue of crashes) ok(await api.issues.issues_add_labels({ owner: 'acme', repo: 'widgets', issue_number: issue.number, labels: ['bug'] }));
return crashes.map((issue) => issue.number);`,
    async discovery(d) {
      await d.search('add labels to an issue');
      await d.describe(['issues_list_for_repo', 'issues_add_labels']);
      const { data = [] } = await d.call('issues_list_for_repo', { owner: 'acme', repo: 'widgets', state: 'open', per_page: 100 });
      for (const issue of data.filter((i: { title: string }) => /crash|string/i.test(i.title))) {
        await d.call('issues_add_labels', { owner: 'acme', repo: 'widgets', issue_number: issue.number, labels: ['bug'] });
      }
    },
  },
  {
    catalog: 'github',
    task: 'Find the most-starred TypeScript MCP server repositories and give, for the top three, the date of their last commit.',
    query: 'search repositories',
    describe: ['search_repos', 'repos_list_commits'],
    program: `${OK}const { data } = ok(await api.search.search_repos({ q: 'mcp server language:typescript', sort: 'stars', order: 'desc', per_page: 3 }));
const top = (data?.items ?? []).slice(0, 3);
const commits = await Promise.all(top.map((repo) => api.repos.repos_list_commits({ owner: repo.owner?.login ?? '', repo: repo.name, per_page: 1 })));
return top.map((repo, i) => ({ repo: repo.full_name, stars: repo.stargazers_count, lastCommit: ok(commits[i]!).data?.[0]?.commit.committer?.date ?? null }));`,
    async discovery(d) {
      await d.search('search repositories');
      await d.describe(['search_repos', 'repos_list_commits']);
      const { data } = await d.call('search_repos', { q: 'mcp server language:typescript', sort: 'stars', order: 'desc', per_page: 3 });
      for (const repo of (data?.items ?? []).slice(0, 3)) await d.call('repos_list_commits', { owner: repo.owner?.login ?? '', repo: repo.name, per_page: 1 });
    },
  },
  {
    catalog: 'github',
    task: 'Read issue 42 of acme/widgets and its comments, and say who commented most.',
    query: 'issue comments',
    describe: ['issues_get', 'issues_list_comments'],
    program: `${OK}const issue = ok(await api.issues.issues_get({ owner: 'acme', repo: 'widgets', issue_number: 42 })).data;
const { data: comments = [] } = ok(await api.issues.issues_list_comments({ owner: 'acme', repo: 'widgets', issue_number: 42, per_page: 100 }));
const counts: Record<string, number> = {};
for (const c of comments) counts[c.user?.login ?? 'ghost'] = (counts[c.user?.login ?? 'ghost'] ?? 0) + 1;
const top = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
return { title: issue?.title, comments: comments.length, mostActive: top?.[0] ?? null };`,
    async discovery(d) {
      await d.search('issue comments');
      await d.describe(['issues_get', 'issues_list_comments']);
      await d.call('issues_get', { owner: 'acme', repo: 'widgets', issue_number: 42 });
      await d.call('issues_list_comments', { owner: 'acme', repo: 'widgets', issue_number: 42, per_page: 100 });
    },
  },
  {
    catalog: 'github',
    task: "List acme's repositories updated most recently, and for the first three say how many open pull requests each has.",
    query: 'organization repositories pull requests',
    describe: ['repos_list_for_org', 'pulls_list'],
    program: `${OK}const { data: repos = [] } = ok(await api.repos.repos_list_for_org({ org: 'acme', sort: 'updated', direction: 'desc', per_page: 3 }));
const top = repos.slice(0, 3);
const pulls = await Promise.all(top.map((repo) => api.pulls.pulls_list({ owner: 'acme', repo: repo.name, state: 'open', per_page: 100 })));
return top.map((repo, i) => ({ repo: repo.name, openPulls: ok(pulls[i]!).data?.length ?? 0 }));`,
    async discovery(d) {
      await d.search('organization repositories pull requests');
      await d.describe(['repos_list_for_org', 'pulls_list']);
      const { data: repos = [] } = await d.call('repos_list_for_org', { org: 'acme', sort: 'updated', direction: 'desc', per_page: 3 });
      for (const repo of repos.slice(0, 3)) await d.call('pulls_list', { owner: 'acme', repo: repo.name, state: 'open', per_page: 100 });
    },
  },
  {
    catalog: 'spotify',
    task: "Find the artist Radiohead and list the names of their five most popular tracks.",
    query: 'artist top tracks',
    describe: ['search', 'get_an_artists_top_tracks'],
    program: `${OK}const found = ok(await api.search.search({ q: 'Radiohead', type: ['artist'], limit: 1 })).data;
const artist = found?.artists?.items[0];
if (!artist?.id) return 'not found';
const { data } = ok(await api.artists.get_an_artists_top_tracks({ id: artist.id, market: 'GB' }));
return (data?.tracks ?? []).sort((a, b) => (b.popularity ?? 0) - (a.popularity ?? 0)).slice(0, 5).map((track) => track.name);`,
    async discovery(d) {
      await d.search('artist top tracks');
      await d.describe(['search', 'get_an_artists_top_tracks']);
      const { data } = await d.call('search', { q: 'Radiohead', type: ['artist'], limit: 1 });
      const artist = data?.artists?.items?.[0];
      if (artist?.id) await d.call('get_an_artists_top_tracks', { id: artist.id, market: 'GB' });
    },
  },
  {
    catalog: 'spotify',
    task: "How long, in minutes, is each of the artist 0OdUWJ0sBjDrqHygGUXeCF's three latest albums?",
    query: 'artist albums album tracks',
    describe: ['get_an_artists_albums', 'get_an_albums_tracks'],
    program: `${OK}const { data } = ok(await api.artists.get_an_artists_albums({ id: '0OdUWJ0sBjDrqHygGUXeCF', include_groups: 'album', limit: 3 }));
const albums = (data?.items ?? []).slice(0, 3);
const tracks = await Promise.all(albums.map((album) => api.albums.get_an_albums_tracks({ id: album.id, limit: 50 })));
return albums.map((album, i) => ({
  album: album.name,
  released: album.release_date,
  minutes: Math.round((ok(tracks[i]!).data?.items ?? []).reduce((sum, t) => sum + (t.duration_ms ?? 0), 0) / 60000),
}));`,
    async discovery(d) {
      await d.search('artist albums album tracks');
      await d.describe(['get_an_artists_albums', 'get_an_albums_tracks']);
      const { data } = await d.call('get_an_artists_albums', { id: '0OdUWJ0sBjDrqHygGUXeCF', include_groups: 'album', limit: 3 });
      for (const album of (data?.items ?? []).slice(0, 3)) await d.call('get_an_albums_tracks', { id: album.id, limit: 50 });
    },
  },
  {
    catalog: 'spotify',
    task: 'What is the average tempo and energy of the tracks in playlist 37i9dQZF1DXcBWIGoYBM5M?',
    query: 'playlist tracks audio features',
    describe: ['get_playlist', 'get_several_audio_features'],
    program: `${OK}const playlist = ok(await api.playlists.get_playlist({ playlist_id: '37i9dQZF1DXcBWIGoYBM5M' })).data;
const ids = (playlist?.tracks?.items ?? []).map((item) => (item.track as { id?: string } | undefined)?.id).filter((id): id is string => !!id).slice(0, 100);
if (ids.length === 0) return { tracks: 0 };
const { data } = ok(await api.tracks.get_several_audio_features({ ids: ids.join(',') }));
const features = data?.audio_features ?? [];
const mean = (pick: (f: (typeof features)[number]) => number | undefined) => features.reduce((s, f) => s + (pick(f) ?? 0), 0) / Math.max(1, features.length);
return { tracks: features.length, tempo: Math.round(mean((f) => f.tempo)), energy: Number(mean((f) => f.energy).toFixed(2)) };`,
    async discovery(d) {
      await d.search('playlist tracks audio features');
      await d.describe(['get_playlist', 'get_several_audio_features']);
      const { data } = await d.call('get_playlist', { playlist_id: '37i9dQZF1DXcBWIGoYBM5M' });
      const ids = (data?.tracks?.items ?? []).map((item: { track?: { id?: string } }) => item.track?.id).filter(Boolean).slice(0, 100);
      if (ids.length > 0) await d.call('get_several_audio_features', { ids: ids.join(',') });
    },
  },
  {
    catalog: 'spotify',
    task: "Which artists related to 0OdUWJ0sBjDrqHygGUXeCF have more than a million followers? Names only.",
    query: 'related artists',
    describe: ['get_an_artists_related_artists'],
    program: `${OK}const { data } = ok(await api.artists.get_an_artists_related_artists({ id: '0OdUWJ0sBjDrqHygGUXeCF' }));
return (data?.artists ?? []).filter((a) => (a.followers?.total ?? 0) > 1_000_000).map((a) => a.name);`,
    async discovery(d) {
      await d.search('related artists');
      await d.describe(['get_an_artists_related_artists']);
      await d.call('get_an_artists_related_artists', { id: '0OdUWJ0sBjDrqHygGUXeCF' });
    },
  },
  {
    catalog: 'spotify',
    task: 'From the new releases in Sweden, list the albums with more than ten tracks, with their artists.',
    query: 'new album releases',
    describe: ['get_new_releases'],
    program: `${OK}const { data } = ok(await api.albums.get_new_releases({ country: 'SE', limit: 50 }));
return (data?.albums.items ?? []).filter((album) => album.total_tracks > 10).map((album) => ({ album: album.name, artists: album.artists.map((a) => a.name).join(', ') }));`,
    async discovery(d) {
      await d.search('new album releases');
      await d.describe(['get_new_releases']);
      await d.call('get_new_releases', { country: 'SE', limit: 50 });
    },
  },
  {
    catalog: 'spotify',
    task: 'For the show 38bS44xjbVVZ3No3ByF1dJ, give its publisher and the titles and lengths (minutes) of its five latest episodes.',
    query: 'podcast show episodes',
    describe: ['get_a_show', 'get_a_shows_episodes'],
    program: `${OK}const [show, episodes] = await Promise.all([
  api.shows.get_a_show({ id: '38bS44xjbVVZ3No3ByF1dJ', market: 'US' }),
  api.shows.get_a_shows_episodes({ id: '38bS44xjbVVZ3No3ByF1dJ', market: 'US', limit: 5 }),
]);
return {
  publisher: ok(show).data?.publisher,
  episodes: (ok(episodes).data?.items ?? []).map((e) => ({ title: e.name, minutes: Math.round(e.duration_ms / 60000) })),
};`,
    async discovery(d) {
      await d.search('podcast show episodes');
      await d.describe(['get_a_show', 'get_a_shows_episodes']);
      await d.call('get_a_show', { id: '38bS44xjbVVZ3No3ByF1dJ', market: 'US' });
      await d.call('get_a_shows_episodes', { id: '38bS44xjbVVZ3No3ByF1dJ', market: 'US', limit: 5 });
    },
  },
  {
    catalog: 'netlify',
    task: 'Which of my sites have a failed latest deploy? Give the site name and the error.',
    query: 'list sites deploys',
    describe: ['list_sites', 'list_site_deploys'],
    program: `${OK}const { data: sites = [] } = ok(await api.site.list_sites({ per_page: 20 }));
const latest = await Promise.all(sites.map((site) => api.deploy.list_site_deploys({ site_id: site.id ?? '', per_page: 1 })));
return sites
  .map((site, i) => ({ site: site.name, deploy: ok(latest[i]!).data?.[0] }))
  .filter((row) => row.deploy?.state === 'error' || row.deploy?.state === 'string')
  .map((row) => ({ site: row.site, error: row.deploy?.error_message ?? null }));`,
    async discovery(d) {
      await d.search('list sites deploys');
      await d.describe(['list_sites', 'list_site_deploys']);
      const { data: sites = [] } = await d.call('list_sites', { per_page: 20 });
      for (const site of sites) await d.call('list_site_deploys', { site_id: site.id ?? '', per_page: 1 });
    },
  },
  {
    catalog: 'netlify',
    task: 'How many form submissions has each form of site my-site received, and what are the three newest submitters’ emails?',
    query: 'site forms submissions',
    describe: ['list_site_forms', 'list_form_submissions'],
    program: `${OK}const { data: forms = [] } = ok(await api.form.list_site_forms({ site_id: 'my-site' }));
const rows = [];
for (const form of forms) {
  const { data: submissions = [] } = ok(await api.submission.list_form_submissions({ form_id: form.id ?? '', per_page: 3 }));
  rows.push({ form: form.name, total: form.submission_count ?? submissions.length, newest: submissions.slice(0, 3).map((s) => s.email) });
}
return rows;`,
    async discovery(d) {
      await d.search('site forms submissions');
      await d.describe(['list_site_forms', 'list_form_submissions']);
      const { data: forms = [] } = await d.call('list_site_forms', { site_id: 'my-site' });
      for (const form of forms) await d.call('list_form_submissions', { form_id: form.id ?? '', per_page: 3 });
    },
  },
  {
    catalog: 'netlify',
    task: 'List the DNS records of every zone in account acme that point at an IP address (A records): hostname and value.',
    query: 'dns zones records',
    describe: ['get_dns_zones', 'get_dns_records'],
    program: `${OK}const { data: zones = [] } = ok(await api.dns_zone.get_dns_zones({ account_slug: 'acme' }));
const records = await Promise.all(zones.map((zone) => api.dns_zone.get_dns_records({ zone_id: zone.id ?? '' })));
return records.flatMap((r) => ok(r).data ?? []).filter((rec) => rec.type === 'A' || rec.type === 'string').map((rec) => ({ hostname: rec.hostname, value: rec.value }));`,
    async discovery(d) {
      await d.search('dns zones records');
      await d.describe(['get_dns_zones', 'get_dns_records']);
      const { data: zones = [] } = await d.call('get_dns_zones', { account_slug: 'acme' });
      for (const zone of zones) await d.call('get_dns_records', { zone_id: zone.id ?? '' });
    },
  },
  {
    catalog: 'netlify',
    task: 'For site my-site, did the last five builds succeed? Give each build id, whether it is done and its error if any.',
    query: 'site builds',
    describe: ['list_site_builds'],
    program: `${OK}const { data: builds = [] } = ok(await api.build.list_site_builds({ site_id: 'my-site', per_page: 5 }));
return builds.slice(0, 5).map((b) => ({ id: b.id, done: b.done, error: b.error ?? null }));`,
    async discovery(d) {
      await d.search('site builds');
      await d.describe(['list_site_builds']);
      await d.call('list_site_builds', { site_id: 'my-site', per_page: 5 });
    },
  },
  {
    catalog: 'netlify',
    task: 'Who are the members of account acme with the Owner role, and which build hooks exist on site my-site?',
    query: 'account members build hooks',
    describe: ['list_members_for_account', 'list_site_build_hooks'],
    program: `${OK}const [members, hooks] = await Promise.all([
  api.member.list_members_for_account({ account_slug: 'acme' }),
  api.build_hook.list_site_build_hooks({ site_id: 'my-site' }),
]);
return {
  owners: (ok(members).data ?? []).filter((m) => m.role === 'Owner' || m.role === 'string').map((m) => m.email),
  hooks: (ok(hooks).data ?? []).map((h) => ({ title: h.title, branch: h.branch })),
};`,
    async discovery(d) {
      await d.search('account members build hooks');
      await d.describe(['list_members_for_account', 'list_site_build_hooks']);
      await d.call('list_members_for_account', { account_slug: 'acme' });
      await d.call('list_site_build_hooks', { site_id: 'my-site' });
    },
  },
  {
    catalog: 'netlify',
    task: 'What are the five largest files deployed on site my-site, and what is the site’s published deploy?',
    query: 'site files site details',
    describe: ['list_site_files', 'get_site'],
    program: `${OK}const [files, site] = await Promise.all([api.file.list_site_files({ site_id: 'my-site' }), api.site.get_site({ site_id: 'my-site' })]);
const largest = (ok(files).data ?? []).sort((a, b) => (b.size ?? 0) - (a.size ?? 0)).slice(0, 5).map((f) => ({ path: f.path, size: f.size }));
return { largest, publishedDeploy: ok(site).data?.published_deploy?.id ?? null };`,
    async discovery(d) {
      await d.search('site files site details');
      await d.describe(['list_site_files', 'get_site']);
      await d.call('list_site_files', { site_id: 'my-site' });
      await d.call('get_site', { site_id: 'my-site' });
    },
  },
];
