import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { Build, Generated, Located } from './kustomize.js';

/** Typed views of a build: its Deployments, the gateway's container, its environment resolved. */

export const GATEWAY = { deployment: 'gateway', container: 'gateway' } as const;

export interface DeploymentAt {
  file: string;
  deployment: IDeployment;
}

export function deployments(build: Build): DeploymentAt[] {
  return build.objects
    .filter(({ object }) => object.apiVersion === 'apps/v1' && object.kind === 'Deployment')
    .map(({ file, object }) => ({ file, deployment: object as unknown as IDeployment }));
}

export function ofKind<T>(build: Build, kind: string): { file: string; object: T }[] {
  return build.objects
    .filter(({ object }) => object.kind === kind)
    .map(({ file, object }: Located) => ({ file, object: object as unknown as T }));
}

export function podLabels(deployment: IDeployment): Record<string, string> {
  return deployment.spec?.template.metadata?.labels ?? {};
}

/** Every label in `selector` is on `labels` with the same value; an empty selector matches nothing here. */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([key, value]) => labels?.[key] === value);
}

export function gatewayContainer(build: Build): { deployment: IDeployment; container: IContainer } | undefined {
  const deployment = deployments(build).find((d) => d.deployment.metadata?.name === GATEWAY.deployment)?.deployment;
  const container = deployment?.spec?.template.spec?.containers.find((c) => c.name === GATEWAY.container);
  return deployment && container ? { deployment, container } : undefined;
}

export function findGenerated(build: Build, kind: Generated['kind'], name: string): Generated | undefined {
  return build.generated.find((g) => g.kind === kind && g.name === name);
}

export interface ResolvedEnvironment {
  env: Record<string, string>;
  /** Absolute path inside the container to the repo file (or text) a mounted ConfigMap/Secret key holds. */
  files: Map<string, string>;
  problems: string[];
}

/**
 * The environment `container` gets, with Secret and ConfigMap references replaced by the
 * generated values (the `.example` of a secret env file), and the files its ConfigMap and
 * Secret volumes put in the container, by path.
 */
export function resolveEnvironment(build: Build, deployment: IDeployment, container: IContainer): ResolvedEnvironment {
  const env: Record<string, string> = {};
  const problems: string[] = [];
  const lookup = (kind: Generated['kind'], name: string, key: string, variable: string) => {
    const value = findGenerated(build, kind, name)?.data.get(key);
    if (value === undefined) problems.push(`${variable}: ${kind} ${name} has no key ${key}`);
    return value ?? '';
  };
  for (const source of container.envFrom ?? []) {
    const ref = source.secretRef ?? source.configMapRef;
    const kind = source.secretRef ? 'Secret' : 'ConfigMap';
    const generated = ref?.name ? findGenerated(build, kind, ref.name) : undefined;
    if (!generated) problems.push(`envFrom: no ${kind} ${ref?.name}`);
    for (const [key, value] of generated?.data ?? []) env[`${source.prefix ?? ''}${key}`] = value;
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    if (!from) env[variable.name] = variable.value ?? '';
    else if (from.secretKeyRef)
      env[variable.name] = lookup('Secret', from.secretKeyRef.name ?? '', from.secretKeyRef.key, variable.name);
    else if (from.configMapKeyRef) {
      env[variable.name] = lookup(
        'ConfigMap',
        from.configMapKeyRef.name ?? '',
        from.configMapKeyRef.key,
        variable.name,
      );
    } else problems.push(`${variable.name}: only values and Secret/ConfigMap keys can be resolved offline`);
  }

  const files = new Map<string, string>();
  const volumes = deployment.spec?.template.spec?.volumes ?? [];
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.find((v) => v.name === mount.name);
    const ref = volume?.configMap ?? volume?.secret;
    const kind = volume?.configMap ? 'ConfigMap' : 'Secret';
    const name = volume?.configMap?.name ?? volume?.secret?.secretName;
    if (!ref || !name) continue;
    const generated = findGenerated(build, kind, name);
    for (const [key, text] of generated?.data ?? []) {
      const item = ref.items?.find((i) => i.key === key);
      if (ref.items && !item) continue;
      if (mount.subPath) {
        if (mount.subPath === (item?.path ?? key)) files.set(mount.mountPath, text);
      } else files.set(`${mount.mountPath}/${item?.path ?? key}`, text);
    }
  }
  return { env, files, problems };
}
