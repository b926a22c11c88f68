import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findHelm, ROOT } from '@fedgw/test-support';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { type Build, DEPLOY_ROOT, type Generated, type K8sObject, parseEnvFile } from './kustomize.js';

/** The Helm chart beside the kustomize base, rendered by the real `helm` (the pinned build). */

export const CHART = join(ROOT, 'deploy', 'helm', 'fedgw-gateway');

/** The release name under which the chart names its objects as the kustomize base does. */
export const RELEASE = 'gateway';

// Helm's own config, cache and data directories: a fresh one, so nobody's repositories or plugins count.
const HELM_HOME = mkdtempSync(join(tmpdir(), 'fedgw-helm-home-'));

export interface HelmRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmRun {
  const bin = findHelm();
  if (!bin) throw new Error('no helm: npx --yes pnpm@10.34.9 helm:install');
  const result = spawnSync(bin, args, {
    encoding: 'utf8',
    // deadline: a hung helm fails its test rather than the run.
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? '',
      HELM_CONFIG_HOME: join(HELM_HOME, 'config'),
      HELM_CACHE_HOME: join(HELM_HOME, 'cache'),
      HELM_DATA_HOME: join(HELM_HOME, 'data'),
    },
  });
  // The chart's files/ are symlinks to deploy/kubernetes/files (one copy); helm says so on every run.
  const stderr = result.stderr
    .split('\n')
    .filter((line) => !/found symbolic link in path: .*deploy\/kubernetes\/files\//.test(line))
    .join('\n')
    .trim();
  return { status: result.status, stdout: result.stdout, stderr };
}

/** `--set` pairs as helm arguments (`--set-string` is not used: the schema sees the typed value). */
export function setArgs(values: Record<string, string | number | boolean>): string[] {
  return Object.entries(values).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
}

/** `helm template` of the chart; throws with helm's message when it refuses. */
export function render(values: Record<string, string | number | boolean> = {}, extra: string[] = []): K8sObject[] {
  const run = helm(['template', RELEASE, CHART, ...setArgs(values), ...extra]);
  if (run.status !== 0) throw new Error(`helm template failed: ${run.stderr}`);
  return parseAllDocuments(run.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

/** What `helm template` says when it refuses the values (empty when it renders them). */
export function refusal(values: Record<string, string | number | boolean>): string {
  const run = helm(['template', RELEASE, CHART, ...setArgs(values)]);
  return run.status === 0 ? '' : run.stderr;
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name);
}

export function get(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = find(objects, kind, name);
  if (!found) throw new Error(`rendered no ${kind}/${name}: ${objects.map((o) => `${o.kind}/${o.metadata.name}`)}`);
  return found;
}

/**
 * The rendered objects as a Build, so the kustomize base's checks (tests/deploy/checks.ts) run on
 * them too: rendered ConfigMaps are also "generated" (their data is what the pods mount), and the
 * Secret the operator creates is the base's secrets.env.example under the chart's secret name.
 */
export function chartBuild(objects: K8sObject[], secretName = `${RELEASE}-secrets`): Build {
  const problems: string[] = [];
  const configMaps: Generated[] = objects
    .filter((object) => object.kind === 'ConfigMap')
    .map((object) => ({
      kind: 'ConfigMap',
      name: object.metadata.name,
      file: 'helm',
      data: new Map(Object.entries((object.data ?? {}) as Record<string, string>)),
      sources: new Map(),
    }));
  const secret: Generated = {
    kind: 'Secret',
    name: secretName,
    file: 'operator',
    data: parseEnvFile(join(DEPLOY_ROOT, 'secrets.env.example'), problems),
    sources: new Map(),
  };
  return {
    objects: objects.map((object) => ({ file: 'helm', object })),
    generated: [...configMaps, secret],
    patches: [],
    images: [],
    files: new Set(),
    problems,
  };
}

/** The image kustomize gives the gateway: the base's placeholder with its `images:` tag. */
export function kustomizeImage(): string {
  const kustomization = parseYaml(readFileSync(join(DEPLOY_ROOT, 'kustomization.yaml'), 'utf8')) as {
    images: { name: string; newName?: string; newTag?: string }[];
  };
  const [image] = kustomization.images;
  if (!image) throw new Error('deploy/kubernetes/kustomization.yaml has no images entry');
  return `${image.newName ?? image.name}:${image.newTag}`;
}
