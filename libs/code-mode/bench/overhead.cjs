#!/usr/bin/env node
// Code mode's own cost, on the built library (nx run @toolsets/code-mode:build first):
// the type check of a 30-line program making 3 inner calls, its run in the sandbox, and both
// together, against a baseline run side by side: the same three calls made directly.
// Usage: node libs/code-mode/bench/overhead.cjs [rounds]
const { Sandbox, ProgramChecker, catalogDeclarations } = require('../dist');

const rounds = Number(process.argv[2] ?? 200);
const object = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const tools = [
  { namespace: 'tracker', name: 'list_issues', description: 'List issues.', inputSchema: object({ state: { enum: ['open', 'closed'] } }), outputSchema: object({ message: { type: 'string' }, issues: { type: 'array', items: object({ number: { type: 'integer' }, title: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } } }) } }) },
  { namespace: 'tracker', name: 'add_label', description: 'Label an issue.', inputSchema: object({ number: { type: 'integer' }, label: { type: 'string' } }), outputSchema: object({ message: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } } }) },
];
const issues = [{ number: 3, title: 'Crash', labels: [] }, { number: 2, title: 'Docs', labels: ['docs'] }, { number: 1, title: 'Slow', labels: [] }];
const answer = (tool, args) => (tool === 'list_issues' ? { message: '3 issues', issues } : { message: 'ok', labels: ['triage', String(args.number)] });
const program = [
  "const { issues } = await api.tracker.list_issues({ state: 'open' });",
  'const unlabelled = issues.filter((issue) => issue.labels.length === 0);',
  'const results: string[][] = [];',
  'for (const issue of unlabelled) {',
  "  const labelled = await api.tracker.add_label({ number: issue.number, label: 'triage' });",
  '  results.push(labelled.labels);',
  '}',
  ...Array.from({ length: 20 }, (_, i) => `const step${i} = results.length + ${i};`),
  'console.log(`labelled ${results.length}`);',
  'return { labelled: results.length, numbers: unlabelled.map((issue) => issue.number), total: step19 };',
].join('\n');

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
const report = (name, values, base) => console.log(`${name.padEnd(34)} p50 ${quantile(values, 0.5).toFixed(2).padStart(8)} ms   p99 ${quantile(values, 0.99).toFixed(2).padStart(8)} ms${base ? `   ${(quantile(values, 0.5) / quantile(base, 0.5)).toFixed(0)}× the direct calls` : ''}`);

(async () => {
  const declarations = catalogDeclarations(tools);
  let started = performance.now();
  const checker = new ProgramChecker(declarations.text);
  const first = checker.check(program);
  console.log(`first check (the compiler and its standard library loaded): ${(performance.now() - started).toFixed(0)} ms, ok: ${first.ok}`);
  const sandbox = new Sandbox({ workers: 1 });
  const host = { namespaces: declarations.namespaces, call: async (_namespace, tool, args) => ({ value: answer(tool, args) }) };
  started = performance.now();
  await sandbox.run('return 1;', host);
  console.log(`first run (a worker started, QuickJS loaded): ${(performance.now() - started).toFixed(0)} ms`);
  const direct = [], checks = [], runs = [], both = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    const list = await host.call('tracker', 'list_issues', { state: 'open' });
    for (const issue of list.value.issues.filter((x) => x.labels.length === 0)) await host.call('tracker', 'add_label', { number: issue.number, label: 'triage' });
    direct.push(performance.now() - t);
    t = performance.now();
    const checked = checker.check(program);
    checks.push(performance.now() - t);
    t = performance.now();
    const outcome = await sandbox.run(checked.javascript, host);
    runs.push(performance.now() - t);
    both.push(checks.at(-1) + runs.at(-1));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
  }
  console.log(`${rounds} rounds, a ${program.split('\n').length}-line program making 3 inner calls:`);
  report('direct calls (baseline)', direct);
  report('type check (warm)', checks, direct);
  report('sandbox run', runs, direct);
  report('type check + run', both, direct);
  await sandbox.close();
})();
