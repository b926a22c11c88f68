import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { parseAllDocuments } from 'yaml';

/**
 * A small, offline reading of a kustomize base and its components: enough to check what
 * the manifests reference (no cluster, and no kubectl on CI). It resolves resources,
 * components, ConfigMap/Secret generators and strategic-merge patches; it does not rename
 * generated objects with their hash suffix (references are checked by base name).
 */

export const DEPLOY_ROOT = join(ROOT, 'deploy', 'kubernetes');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

export interface Located {
  /** Relative to the repository root. */
  file: string;
  object: K8sObject;
}

export interface Generated {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  /** The kustomization that declares it. */
  file: string;
  /** Key to value (a file's content, or an env file's value). */
  data: Map<string, string>;
  /** Key to the file the value comes from, when it is a file. */
  sources: Map<string, string>;
}

export interface Build {
  objects: Located[];
  generated: Generated[];
  patches: Located[];
  images: string[];
  /** Every kustomization and manifest file read, absolute. */
  files: Set<string>;
  problems: string[];
}

const KUSTOMIZATION_FIELDS: Record<string, readonly string[]> = {
  Kustomization: [
    'apiVersion',
    'kind',
    'namespace',
    'resources',
    'components',
    'images',
    'configMapGenerator',
    'secretGenerator',
    'patches',
  ],
  Component: ['apiVersion', 'kind', 'resources', 'patches', 'images'],
};
const KUSTOMIZATION_API: Record<string, string> = {
  Kustomization: 'kustomize.config.k8s.io/v1beta1',
  Component: 'kustomize.config.k8s.io/v1alpha1',
};

interface GeneratorSpec {
  name?: string;
  files?: string[];
  envs?: string[];
  literals?: string[];
  options?: Record<string, unknown>;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  components?: string[];
  images?: { name: string }[];
  configMapGenerator?: GeneratorSpec[];
  secretGenerator?: GeneratorSpec[];
  patches?: { path?: string }[];
  [key: string]: unknown;
}

export const rel = (path: string) => relative(ROOT, path);

/** Every non-empty YAML document of `file`; parse errors are problems. */
export function loadYaml(file: string, problems: string[]): unknown[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'));
  const docs = Array.isArray(documents) ? documents : [documents];
  const out: unknown[] = [];
  for (const doc of docs) {
    for (const error of doc.errors) problems.push(`${rel(file)}: ${error.message}`);
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** `dir`'s kustomization, then `components` as an overlay would add them, then the patches. */
export function kustomize(dir: string, components: readonly string[] = []): Build {
  const build: Build = { objects: [], generated: [], patches: [], images: [], files: new Set(), problems: [] };
  apply(dir, 'Kustomization', build);
  for (const component of components) apply(component, 'Component', build);
  for (const patch of build.patches) {
    const target = build.objects.find(
      ({ object }) => object.kind === patch.object.kind && object.metadata?.name === patch.object.metadata?.name,
    );
    if (!target) {
      build.problems.push(
        `${patch.file}: patches ${patch.object.kind}/${patch.object.metadata?.name}, which no resource defines`,
      );
      continue;
    }
    target.object = strategicMerge(target.object, patch.object) as K8sObject;
  }
  return build;
}

function apply(dir: string, kind: 'Kustomization' | 'Component', build: Build): void {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) {
    build.problems.push(`${rel(dir)}: no kustomization.yaml`);
    return;
  }
  build.files.add(file);
  const where = rel(file);
  const k = (loadYaml(file, build.problems)[0] ?? {}) as Kustomization;
  if (k.kind !== kind) build.problems.push(`${where}: kind is ${k.kind}, expected ${kind}`);
  if (k.apiVersion !== KUSTOMIZATION_API[kind]) {
    build.problems.push(`${where}: apiVersion is ${k.apiVersion}, expected ${KUSTOMIZATION_API[kind]}`);
  }
  for (const key of Object.keys(k)) {
    if (!KUSTOMIZATION_FIELDS[kind]?.includes(key)) build.problems.push(`${where}: unexpected field ${key}`);
  }

  for (const resource of k.resources ?? []) {
    // Another kustomization (a directory) may be anywhere, as an overlay's base is; files may not.
    const directory = resolve(dir, resource);
    if (existsSync(directory) && statSync(directory).isDirectory()) {
      apply(directory, 'Kustomization', build);
      continue;
    }
    const path = inside(dir, resource, where, build.problems);
    if (!path) continue;
    build.files.add(path);
    for (const doc of loadYaml(path, build.problems)) build.objects.push({ file: rel(path), object: doc as K8sObject });
  }
  for (const component of k.components ?? []) {
    const path = resolve(dir, component);
    if (existsSync(path)) apply(path, 'Component', build);
    else build.problems.push(`${where}: component ${component} does not exist`);
  }
  for (const spec of k.configMapGenerator ?? []) build.generated.push(generate('ConfigMap', spec, dir, where, build));
  for (const spec of k.secretGenerator ?? []) build.generated.push(generate('Secret', spec, dir, where, build));
  for (const patch of k.patches ?? []) {
    if (!patch.path) {
      build.problems.push(`${where}: only file patches (path:) are supported here`);
      continue;
    }
    const path = inside(dir, patch.path, where, build.problems);
    if (!path) continue;
    build.files.add(path);
    for (const doc of loadYaml(path, build.problems)) build.patches.push({ file: rel(path), object: doc as K8sObject });
  }
  for (const image of k.images ?? []) build.images.push(image.name);
}

/** A path kustomize may load: it exists, under the kustomization's directory (its load restriction). */
function inside(dir: string, path: string, where: string, problems: string[]): string | undefined {
  const absolute = resolve(dir, path);
  if (absolute !== dir && !absolute.startsWith(dir + sep)) {
    problems.push(`${where}: ${path} is outside the kustomization's directory (kustomize refuses to load it)`);
    return undefined;
  }
  if (!existsSync(absolute)) {
    problems.push(`${where}: ${path} does not exist`);
    return undefined;
  }
  return absolute;
}

function generate(kind: Generated['kind'], spec: GeneratorSpec, dir: string, where: string, build: Build): Generated {
  const generated: Generated = { kind, name: spec.name ?? '', file: where, data: new Map(), sources: new Map() };
  if (!spec.name) build.problems.push(`${where}: a ${kind} generator without a name`);
  for (const entry of spec.files ?? []) {
    const [key, path] = entry.includes('=') ? (entry.split('=', 2) as [string, string]) : [basename(entry), entry];
    const file = inside(dir, path, where, build.problems);
    if (!file) continue;
    generated.data.set(key, readFileSync(file, 'utf8'));
    generated.sources.set(key, file);
  }
  for (const env of spec.envs ?? []) {
    const file =
      kind === 'Secret'
        ? secretEnvFile(resolve(dir, env), where, build.problems)
        : inside(dir, env, where, build.problems);
    if (!file) continue;
    for (const [key, value] of parseEnvFile(file, build.problems)) generated.data.set(key, value);
  }
  if ((spec.literals ?? []).length > 0 && kind === 'Secret') {
    build.problems.push(
      `${where}: Secret ${spec.name} has literals, which would commit a secret: use a git-ignored env file`,
    );
  }
  for (const literal of spec.literals ?? []) {
    const at = literal.indexOf('=');
    generated.data.set(literal.slice(0, at), literal.slice(at + 1));
  }
  return generated;
}

/**
 * A Secret's env file is never committed: it must be git-ignored, with a committed
 * `<file>.example`, whose values stand in for it here (so the result does not depend on
 * anyone's local secrets).
 */
function secretEnvFile(file: string, where: string, problems: string[]): string | undefined {
  const example = `${file}.example`;
  if (!gitIgnored(file)) problems.push(`${where}: ${rel(file)} holds secrets but is not git-ignored`);
  if (gitIgnored(example)) problems.push(`${where}: ${rel(example)} is git-ignored, so it would not be committed`);
  if (!existsSync(example)) {
    problems.push(`${where}: ${rel(example)} (the committed template of ${rel(file)}) does not exist`);
    return undefined;
  }
  return example;
}

function gitIgnored(file: string): boolean {
  return spawnSync('git', ['check-ignore', '-q', file], { cwd: ROOT }).status === 0;
}

/** kustomize's env file syntax: KEY=VALUE lines, `#` comments, no quoting. */
export function parseEnvFile(file: string, problems: string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const [index, line] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const at = line.indexOf('=');
    const key = line.slice(0, at);
    if (at <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      problems.push(`${rel(file)}:${index + 1}: expected KEY=VALUE`);
      continue;
    }
    values.set(key, line.slice(at + 1));
  }
  return values;
}

/** Strategic merge as kustomize does it for what we patch: maps merge, lists of named items merge by name. */
export function strategicMerge(target: unknown, patch: unknown): unknown {
  const named = (list: unknown[]) => list.every((item) => isRecord(item) && typeof item.name === 'string');
  if (Array.isArray(target) && Array.isArray(patch) && named(target) && named(patch)) {
    const merged = [...target] as Record<string, unknown>[];
    for (const item of patch as Record<string, unknown>[]) {
      const index = merged.findIndex((existing) => existing.name === item.name);
      if (index >= 0) merged[index] = strategicMerge(merged[index], item) as Record<string, unknown>;
      else merged.push(item);
    }
    return merged;
  }
  if (isRecord(target) && isRecord(patch)) {
    const merged: Record<string, unknown> = { ...target };
    for (const [key, value] of Object.entries(patch))
      merged[key] = key in target ? strategicMerge(target[key], value) : value;
    return merged;
  }
  return patch;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every .yaml/.yml file under `dir`. */
export function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

/** The optional components, each a directory under components/. */
export function componentDirs(): string[] {
  const dir = join(DEPLOY_ROOT, 'components');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(dir, entry.name));
}
