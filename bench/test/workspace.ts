/** The workspace's packages as their manifests declare them, and what a node_modules tree holds. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface WorkspacePackage {
  /** Its directory, relative to the root: `server`. */
  readonly dir: string;
  readonly name: string;
  readonly dependencies: Readonly<Record<string, string>>;
}

/** Every package pnpm-workspace.yaml lists (plain directory entries, as ours are). */
export async function workspacePackages(root: string): Promise<WorkspacePackage[]> {
  const workspace = parse(await readFile(join(root, 'pnpm-workspace.yaml'), 'utf8')) as { packages: string[] };
  return Promise.all(
    workspace.packages.map(async (dir) => {
      const manifest = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      return { dir, name: manifest.name, dependencies: manifest.dependencies ?? {} };
    }),
  );
}

/** `roots` and the workspace packages they need at run time: `dependencies` only, transitively. */
export function runtimeClosure(packages: readonly WorkspacePackage[], roots: readonly string[]): WorkspacePackage[] {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const needed = new Set<string>();
  const visit = (name: string) => {
    const found = byName.get(name);
    if (!found) throw new Error(`${name} is not a workspace package`);
    if (needed.has(name)) return;
    needed.add(name);
    for (const [dependency, range] of Object.entries(found.dependencies)) {
      if (range.startsWith('workspace:')) visit(dependency);
    }
  };
  for (const root of roots) visit(root);
  return packages.filter((p) => needed.has(p.name));
}

/**
 * The package names a pnpm-installed tree at `root` holds: every entry of the virtual store
 * (`node_modules/.pnpm/@scope+name@1.2.3_peers`) plus the workspace packages linked into
 * `root/<dir>/node_modules`.
 */
export async function installedPackageNames(root: string, dirs: readonly string[]): Promise<Set<string>> {
  const names = new Set<string>();
  for (const entry of await readdir(join(root, 'node_modules', '.pnpm'))) {
    const name = /^(@[^+]+\+[^@]+|[^@]+)@/.exec(entry)?.[1];
    if (name) names.add(name.replace('+', '/'));
  }
  for (const dir of dirs) {
    const modules = join(root, dir, 'node_modules');
    for (const entry of await readdir(modules).catch(() => [])) {
      if (entry.startsWith('.')) continue; // .bin, .modules.yaml
      const scoped = entry.startsWith('@') ? await readdir(join(modules, entry)) : null;
      for (const name of scoped ? scoped.map((inner) => `${entry}/${inner}`) : [entry]) names.add(name);
    }
  }
  return names;
}
