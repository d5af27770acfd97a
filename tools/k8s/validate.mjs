#!/usr/bin/env node
// Validates every Kubernetes object under deploy/k8s against the Kubernetes schemas
// (kubernetes-models), through each app's kustomization: its resources exist, each object is valid,
// and the images it names are the ones the kustomization sets. Prints one JSON report; exits 1 on
// any problem. No cluster, kubectl or kustomize is needed. Usage: node tools/k8s/validate.mjs [dir]
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const base = process.argv[2] ?? join(root, 'deploy/k8s');
const report = { apps: {}, problems: [] };

for (const app of readdirSync(base)) {
  const dir = join(base, app);
  const kustomization = readYaml(join(dir, 'kustomization.yaml'))[0];
  const objects = [];
  for (const resource of kustomization.resources ?? []) {
    const file = join(dir, resource);
    if (!existsSync(file)) {
      report.problems.push(`${app}: ${resource} is listed in kustomization.yaml but missing`);
      continue;
    }
    for (const object of readYaml(file)) {
      const group = object.apiVersion.includes('/') ? object.apiVersion : 'v1';
      const models = await import(`kubernetes-models/${group}`).catch(() => undefined);
      const Model = models?.[object.kind];
      if (!Model) {
        report.problems.push(`${app}/${resource}: no schema for ${object.apiVersion} ${object.kind}`);
        continue;
      }
      try {
        new Model(object).validate();
        objects.push(`${object.kind}/${object.metadata?.name}`);
      } catch (error) {
        report.problems.push(`${app}/${resource}: ${object.kind} ${object.metadata?.name}: ${error.message}`);
      }
      for (const container of object.spec?.template?.spec?.containers ?? []) {
        if (!(kustomization.images ?? []).some((image) => image.name === container.image)) report.problems.push(`${app}/${resource}: image ${container.image} is not set by kustomization.yaml`);
      }
    }
  }
  report.apps[app] = objects;
}
console.log(JSON.stringify(report, null, 2));
process.exit(report.problems.length ? 1 : 0);

function readYaml(file) {
  return parseAllDocuments(readFileSync(file, 'utf-8')).map((document) => document.toJSON());
}
