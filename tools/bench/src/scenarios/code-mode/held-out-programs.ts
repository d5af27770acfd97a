/**
 * Programs for the held-out tasks (held-out-search-tasks.json, in its order): what a model writes
 * after one `search` with the task's sentence and one `describe` of the task's tools, written from
 * those declarations and committed before any of them ran. The upstream is a sampler of each
 * documented answer (every string "string", arrays of five): `is(value, wanted)` also accepts
 * "string" where a task names a thing, so the later steps run (as scenario 16's programs do).
 * Never edited after a run: a program that fails stays, and the scenario says why.
 */

const PRELUDE = `const ok = <T>(result: T): Exclude<T, { error: string }> => {
  if (result && typeof result === 'object' && 'error' in result) throw new Error(String((result as { detail?: unknown }).detail));
  return result as Exclude<T, { error: string }>;
};
const is = (value: string | null, wanted: string) => value === wanted || value === 'string';
`;
const BITBUCKET = `${PRELUDE}const repo = { workspace: 'acme', repo_slug: 'widgets' };
`;
const LINODE = `${PRELUDE}const linodeNamed = async (label: string) => ok(await api.linode_instances.get_linode_instances()).data.data.find((linode) => is(linode.label, label));
`;

export const HELD_OUT_PROGRAMS: readonly string[] = [
  // 1. The three most recent open pull requests: who commented, and whether the builds passed.
  `${BITBUCKET}const pulls = ok(await api.pullrequests.get_repositories_workspace_repo_slug_pullrequests({ ...repo, state: 'OPEN' })).data.values;
const latest = [...pulls].sort((a, b) => b.created_on.localeCompare(a.created_on)).slice(0, 3);
return await Promise.all(latest.map(async (pull) => {
  const [comments, statuses] = await Promise.all([
    api.pullrequests.get_repositories_workspace_repo_pull_request_id_comments({ ...repo, pull_request_id: pull.id }),
    api.pullrequests.get_repositories_workspace_repo_pull_request_id_statuses({ ...repo, pull_request_id: pull.id }),
  ]);
  return { id: pull.id, title: pull.title, commenters: [...new Set(ok(comments).data.values.map((comment) => comment.user.display_name))], passed: ok(statuses).data.values.every((status) => status.state === 'SUCCESSFUL') };
}));`,
  // 2. Approve pull request 12, merge it if every build status is successful.
  `${BITBUCKET}const pull = { ...repo, pull_request_id: 12 };
ok(await api.pullrequests.post_repositories_workspace_repo_pull_request_id_approve(pull));
const statuses = ok(await api.pullrequests.get_repositories_workspace_repo_pull_request_id_statuses(pull)).data.values;
if (!statuses.every((status) => status.state === 'SUCCESSFUL')) return { approved: true, merged: false, statuses: statuses.map((status) => status.state) };
const merged = ok(await api.pullrequests.post_repositories_workspace_repo_pull_request_id_merge(pull)).data;
return { approved: true, merged: true, state: merged.state };`,
  // 3. Open critical issues: comment asking for an update on each.
  `${BITBUCKET}const issues = ok(await api.issue_tracker.get_repositories_workspace_repo_slug_issues(repo)).data.values;
const critical = issues.filter((issue) => issue.priority === 'critical' && (issue.state === 'open' || issue.state === 'new'));
for (const issue of critical) ok(await api.issue_tracker.post_repositories_workspace_repo_slug_issues_issue_id_comments({ ...repo, issue_id: String(issue.id), type: 'issue_comment', content: { raw: 'Any update on this?' } }));
return critical.map((issue) => ({ id: issue.id, title: issue.title }));`,
  // 4. Pull request 7: its diffstat and its commits.
  `${BITBUCKET}const pull = { ...repo, pull_request_id: 7 };
const [diffstat, commits] = await Promise.all([api.pullrequests.get_repositories_workspace_repo_pull_request_id_diffstat(pull), api.pullrequests.get_repositories_workspace_repo_pull_request_id_commits(pull)]);
return { diffstat: ok(diffstat).message, commits: ok(commits).message };`,
  // 5. The last five pipelines; a failed one's failing step's log.
  `${BITBUCKET}const pipelines = ok(await api.pipelines.get_pipelines_for_repository(repo)).data.values;
const rows = [];
for (const pipeline of [...pipelines].sort((a, b) => b.build_number - a.build_number).slice(0, 5)) {
  let log: string | undefined;
  if (/fail|error|stopped/i.test(pipeline.state.type)) {
    const steps = ok(await api.pipelines.get_pipeline_steps_for_repository({ ...repo, pipeline_uuid: pipeline.uuid })).data.values;
    const failing = steps.find((step) => /fail|error/i.test(step.state.type)) ?? steps[steps.length - 1];
    if (failing) log = ok(await api.pipelines.get_pipeline_step_log_for_repository({ ...repo, pipeline_uuid: pipeline.uuid, step_uuid: failing.uuid })).message;
  }
  rows.push({ build: pipeline.build_number, state: pipeline.state.type, ...(log !== undefined && { log }) });
}
return rows;`,
  // 6. Branch release/2.0 from main, and tag its head v2.0.0.
  `${BITBUCKET}const main = ok(await api.refs.get_repositories_workspace_repo_slug_refs_branches_name({ ...repo, name: 'main' })).data;
const branch = ok(await api.refs.post_repositories_workspace_repo_slug_refs_branches(repo)).data;
const tag = ok(await api.refs.post_repositories_workspace_repo_slug_refs_tags({ ...repo, type: 'tag', name: 'v2.0.0', target: { type: 'commit', hash: main.target.hash } })).data;
return { from: main.target.hash, branch: branch.name, tag: tag.name };`,
  // 7. The repositories of acme, with who can administer each.
  `${BITBUCKET}const repositories = ok(await api.repositories.get_repositories_workspace({ workspace: 'acme' })).data.values;
return await Promise.all(repositories.map(async (repository) => {
  const slug = repository.full_name.split('/').pop() ?? repository.name;
  const permissions = ok(await api.repositories.get_repositories_workspace_repo_slug_permissions_config_users({ workspace: 'acme', repo_slug: slug })).data.values;
  return { repository: repository.full_name, admins: permissions.filter((entry) => entry.permission === 'admin').map((entry) => entry.user.display_name) };
}));`,
  // 8. The members of acme, and its projects.
  `${BITBUCKET}const [members, projects] = await Promise.all([api.workspaces.get_workspaces_workspace_members({ workspace: 'acme' }), api.workspaces.get_workspaces_workspace_projects({ workspace: 'acme' })]);
return { members: ok(members).data.values.map((member) => member.user.display_name), projects: ok(projects).data.values.map((project) => project.key + ': ' + project.name) };`,
  // 9. The README at the root of main, and the repository's commits.
  `${BITBUCKET}const readme = ok(await api.source.get_repositories_workspace_repo_slug_src_commit_path({ ...repo, commit: 'main', path: 'README.md' }));
const commits = ok(await api.commits.get_repositories_workspace_repo_slug_commits(repo)).data.values;
return { readme: readme.message, commits: commits.map((commit) => ({ hash: commit.hash.slice(0, 12), message: commit.message.split('\\n')[0] })) };`,
  // 10. Run main's pipeline; stop it if it is still running.
  `${BITBUCKET}const created = ok(await api.pipelines.create_pipeline_for_repository({ ...repo, type: 'pipeline', target: { type: 'pipeline_ref_target' } })).data;
const now = ok(await api.pipelines.get_pipeline_for_repository({ ...repo, pipeline_uuid: created.uuid })).data;
const running = /progress|pending|running/i.test(now.state.type) || is(now.state.type, 'IN_PROGRESS');
if (running) ok(await api.pipelines.stop_pipeline({ ...repo, pipeline_uuid: created.uuid }));
return { pipeline: created.build_number, state: now.state.type, stopped: running };`,
  // 11. Decline every open pull request into legacy, with a comment saying why.
  `${BITBUCKET}const pulls = ok(await api.pullrequests.get_repositories_workspace_repo_slug_pullrequests({ ...repo, state: 'OPEN' })).data.values.filter((pull) => is(pull.destination.branch.name, 'legacy'));
for (const pull of pulls) {
  ok(await api.pullrequests.post_repositories_workspace_repo_pull_request_id_comments({ ...repo, pull_request_id: pull.id, type: 'pullrequest_comment', content: { raw: 'Declining: the legacy branch takes no more changes.' } }));
  ok(await api.pullrequests.post_repositories_workspace_repo_pull_request_id_decline({ ...repo, pull_request_id: pull.id }));
}
return pulls.map((pull) => pull.id);`,
  // 12. The environments, and what was last deployed to each.
  `${BITBUCKET}const [environments, deployments] = await Promise.all([api.deployments.get_environments_for_repository(repo), api.deployments.get_deployments_for_repository(repo)]);
const all = ok(deployments).data.values;
return ok(environments).data.values.map((environment) => {
  const last = all.filter((deployment) => deployment.environment.uuid === environment.uuid).sort((a, b) => b.release.created_on.localeCompare(a.release.created_on))[0];
  return { environment: environment.name, release: last ? last.release.name : 'nothing deployed' };
});`,
  // 13. main against develop: files that differ, and their common ancestor.
  `${BITBUCKET}const [diffstat, base] = await Promise.all([api.commits.get_repositories_workspace_repo_slug_diffstat_spec({ ...repo, spec: 'main..develop' }), api.commits.get_repositories_workspace_repo_slug_merge_base_revspec({ ...repo, revspec: 'main..develop' })]);
return { filesDiffering: ok(diffstat).data.values.length, commonAncestor: ok(base).data.hash };`,
  // 14. Each Linode's disks and their sizes, and which are nearly full.
  `${LINODE}const linodes = ok(await api.linode_instances.get_linode_instances()).data.data;
return await Promise.all(linodes.map(async (linode) => {
  const disks = ok(await api.linode_instances.get_linode_disks({ linodeId: linode.id })).data.data;
  const used = disks.reduce((sum, disk) => sum + disk.size, 0);
  return { linode: linode.label, planMb: linode.specs.disk, usedMb: used, nearlyFull: used >= 0.9 * linode.specs.disk, disks: disks.map((disk) => ({ label: disk.label, size: disk.size })) };
}));`,
  // 15. Snapshot every Linode tagged production, enabling backups where they are off.
  `${LINODE}const production = ok(await api.linode_instances.get_linode_instances()).data.data.filter((linode) => linode.tags.some((tag) => is(tag, 'production')));
const done = [];
for (const linode of production) {
  if (!linode.backups.enabled) ok(await api.linode_instances.enable_backups({ linodeId: linode.id }));
  const snapshot = ok(await api.linode_instances.create_snapshot({ linodeId: linode.id, label: linode.label + '-snapshot' })).data;
  done.push({ linode: linode.label, snapshot: snapshot.id, status: snapshot.status });
}
return done;`,
  // 16. Reboot web-1, and the events the reboot produced.
  `${LINODE}const web = await linodeNamed('web-1');
if (!web) return 'No Linode called web-1.';
ok(await api.linode_instances.reboot_linode_instance({ linodeId: web.id }));
const events = ok(await api.account.get_events()).data.data.filter((event) => event.entity.id === web.id && event.action === 'linode_reboot');
return events.map((event) => ({ action: event.action, status: event.status, created: event.created }));`,
  // 17. example.com's A records, and www pointed at 203.0.113.10.
  `${LINODE}const domain = ok(await api.domains.get_domains()).data.data.find((candidate) => is(candidate.domain, 'example.com'));
if (!domain) return 'No domain example.com.';
const records = ok(await api.domains.get_domain_records({ domainId: domain.id })).data.data.filter((record) => record.type === 'A');
const www = records.find((record) => is(record.name, 'www'));
const updated = www ? ok(await api.domains.update_domain_record({ domainId: domain.id, recordId: www.id, target: '203.0.113.10' })).data : undefined;
return { a: records.map((record) => ({ name: record.name, target: record.target })), www: updated ? updated.target : 'no www A record' };`,
  // 18. A 50 GB volume in db-1's region, attached to db-1.
  `${LINODE}const found = await linodeNamed('db-1');
if (!found) return 'No Linode called db-1.';
const db = ok(await api.linode_instances.get_linode_instance({ linodeId: found.id })).data;
const volume = ok(await api.volumes.create_volume({ label: 'db-1-data', size: 50, region: db.region })).data;
const attached = ok(await api.volumes.attach_volume({ volumeId: volume.id, linode_id: db.id })).data;
return { volume: attached.id, linode: attached.linode_label ?? db.label, region: volume.region, size: volume.size };`,
  // 19. The firewalls web-1 is behind, and each one's inbound rules.
  `${LINODE}const web = await linodeNamed('web-1');
if (!web) return 'No Linode called web-1.';
const firewalls = ok(await api.linode_instances.get_linode_firewalls({ linodeId: web.id })).data.data;
return await Promise.all(firewalls.map(async (firewall) => ({
  firewall: firewall.label,
  inbound: ok(await api.networking.get_firewall_rules({ firewallId: firewall.id })).data.inbound.map((rule) => rule.action + ' ' + rule.protocol + ' ' + rule.ports),
})));`,
  // 20. The latest invoice and its line items.
  `${LINODE}const invoices = ok(await api.account.get_invoices()).data.data;
const latest = [...invoices].sort((a, b) => b.date.localeCompare(a.date))[0];
if (!latest) return 'No invoices.';
const items = ok(await api.account.get_invoice_items({ invoiceId: latest.id })).data.data;
return { invoice: latest.label, date: latest.date, total: latest.total, items: items.map((item) => ({ label: item.label, amount: item.amount, total: item.total })) };`,
  // 21. Kubernetes clusters with their node pools, and the first one's kubeconfig.
  `${LINODE}const clusters = ok(await api.linode_kubernetes_engine__lke.get_lke_clusters()).data.data;
const withPools = await Promise.all(clusters.map(async (cluster) => ({
  cluster: cluster.label,
  pools: ok(await api.linode_kubernetes_engine__lke.get_lke_cluster_pools({ clusterId: cluster.id })).data.data.map((pool) => ({ type: pool.type, count: pool.count })),
})));
const first = clusters[0];
const kubeconfig = first ? ok(await api.linode_kubernetes_engine__lke.get_lke_cluster_kubeconfig({ clusterId: first.id })).data.kubeconfig : '';
return { clusters: withPools, kubeconfigOf: first ? first.label : 'none', kubeconfigBytes: kubeconfig.length };`,
  // 22. lb-1's configs, their nodes and status, and which are down.
  `${LINODE}const balancer = ok(await api.node_balancers.get_node_balancers()).data.data.find((candidate) => is(candidate.label, 'lb-1'));
if (!balancer) return 'No NodeBalancer lb-1.';
const configs = ok(await api.node_balancers.get_node_balancer_configs({ nodeBalancerId: balancer.id })).data.data;
const rows = await Promise.all(configs.map(async (config) => ({
  port: config.port,
  nodes: ok(await api.node_balancers.get_node_balancer_config_nodes({ nodeBalancerId: balancer.id, configId: config.id })).data.data.map((node) => ({ label: node.label, address: node.address, status: node.status })),
})));
return { configs: rows, down: rows.flatMap((row) => row.nodes.filter((node) => node.status === 'DOWN').map((node) => node.label)) };`,
  // 23. Create alice, and grant her read-only on every Linode.
  `${LINODE}const user = ok(await api.account.create_user({ username: 'alice', email: 'alice@example.com', restricted: true })).data;
const linodes = ok(await api.linode_instances.get_linode_instances()).data.data;
const grants = ok(await api.account.update_user_grants({ username: user.username, global: { account_access: 'read_only' }, linode: linodes.map((linode) => ({ id: linode.id, permissions: 'read_only' as const })) })).data;
return { user: user.username, linodes: grants.linode.map((grant) => grant.label + ': ' + grant.permissions) };`,
  // 24. A support ticket about web-1's network, with its transfer this month.
  `${LINODE}const web = await linodeNamed('web-1');
if (!web) return 'No Linode called web-1.';
const transfer = ok(await api.linode_instances.get_linode_transfer({ linodeId: web.id })).data;
const ticket = ok(await api.support.create_ticket({ linode_id: web.id, summary: 'Network problems on web-1', description: 'web-1 has network problems. Transfer this month: ' + transfer.used + ' GB used of ' + transfer.quota + ' GB, ' + transfer.billable + ' GB billable.' })).data;
return { ticket: ticket.id, status: ticket.status };`,
  // 25. Resize app-2 to the cheapest plan with at least 8 GB of memory.
  `${LINODE}const plans = ok(await api.linode_types.get_linode_types()).data.data.filter((plan) => plan.memory >= 8192);
const cheapest = [...plans].sort((a, b) => a.price.monthly - b.price.monthly)[0];
if (!cheapest) return 'No plan has 8 GB of memory.';
const app = await linodeNamed('app-2');
if (!app) return 'No Linode called app-2.';
ok(await api.linode_instances.resize_linode_instance({ linodeId: app.id, type: cheapest.id }));
return { linode: app.label, plan: cheapest.id, monthly: cheapest.price.monthly };`,
  // 26. The objects of bucket assets in us-east-1, and a download link for the largest.
  `${LINODE}const where = { clusterId: 'us-east-1', bucket: 'assets' };
const objects = ok(await api.object_storage.get_object_storage_bucket_content(where)).data.data;
const largest = [...objects].sort((a, b) => b.size - a.size)[0];
if (!largest) return 'The bucket is empty.';
const { url } = ok(await api.object_storage.create_object_storage_object_url({ ...where, name: largest.name, method: 'GET', expires_in: 3600 })).data;
return { object: largest.name, size: largest.size, url };`,
  // 27. Managed PostgreSQL databases, and each one's latest backup.
  `${LINODE}const databases = ok(await api.databases.get_databases_postgre_sql_instances()).data.data;
return await Promise.all(databases.map(async (database) => {
  const backups = ok(await api.databases.get_databases_postgre_sql_instance_backups({ instanceId: database.id })).data.data;
  const latest = [...backups].sort((a, b) => b.created.localeCompare(a.created))[0];
  return { database: database.label, latestBackup: latest ? latest.created : 'none' };
}));`,
];
