import { CONFIG_FIELDS, CONFIG_FILE_ENV, type GatewayConfig, parseConfig } from '@fedgw/gateway';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IService } from 'kubernetes-models/v1/Service';
import type { Build } from './kustomize.js';
import {
  deployments,
  findGenerated,
  GATEWAY,
  gatewayContainer,
  ofKind,
  podLabels,
  resolveEnvironment,
  selects,
} from './pods.js';

/**
 * Each check reads a resolved build and returns what is wrong, one sentence per problem
 * naming the file and object, so a test can show it fails on a broken copy.
 */

/** Seconds the process needs to exit after the grace period: the kubelet's SIGKILL must not come sooner. */
export const EXIT_MARGIN_S = 5;

interface ServiceMonitor {
  metadata: { name: string };
  spec: { selector: { matchLabels?: Record<string, string> }; endpoints: { port?: string }[] };
}

/** Selectors select what they should: Deployments their own pods, Services/PDBs/policies some pod, HPAs a Deployment. */
export function checkSelectors(build: Build): string[] {
  const problems: string[] = [];
  const pods = deployments(build);
  const anyPod = (selector: Record<string, string> | undefined) =>
    pods.filter((p) => selects(selector, podLabels(p.deployment)));

  for (const { file, deployment } of pods) {
    const name = `${file}: Deployment ${deployment.metadata?.name}`;
    if (deployment.spec?.selector.matchExpressions) problems.push(`${name}: matchExpressions are not checked here`);
    if (!selects(deployment.spec?.selector.matchLabels, podLabels(deployment))) {
      problems.push(`${name}: its selector does not match its own pod labels`);
    }
    for (const spread of deployment.spec?.template.spec?.topologySpreadConstraints ?? []) {
      if (!selects(spread.labelSelector?.matchLabels, podLabels(deployment))) {
        problems.push(`${name}: a topology spread constraint selects other pods than its own`);
      }
    }
  }
  for (const { file, object } of ofKind<IService>(build, 'Service')) {
    const name = `${file}: Service ${object.metadata?.name}`;
    const targets = anyPod(object.spec?.selector);
    if (targets.length === 0) problems.push(`${name}: its selector matches no pod`);
    for (const port of object.spec?.ports ?? []) {
      for (const { deployment } of targets) {
        const containers = deployment.spec?.template.spec?.containers ?? [];
        const target = port.targetPort ?? port.port;
        const found = containers.some((c) =>
          (c.ports ?? []).some((p) => (typeof target === 'string' ? p.name === target : p.containerPort === target)),
        );
        if (!found)
          problems.push(
            `${name}: port ${port.name} targets ${target}, which ${deployment.metadata?.name} does not expose`,
          );
      }
    }
  }
  for (const { file, object } of ofKind<IPodDisruptionBudget>(build, 'PodDisruptionBudget')) {
    if (anyPod(object.spec?.selector?.matchLabels).length === 0) {
      problems.push(`${file}: PodDisruptionBudget ${object.metadata?.name}: its selector matches no pod`);
    }
  }
  for (const { file, object } of ofKind<IHorizontalPodAutoscaler>(build, 'HorizontalPodAutoscaler')) {
    const ref = object.spec?.scaleTargetRef;
    const target = pods.find((p) => ref?.kind === 'Deployment' && p.deployment.metadata?.name === ref.name);
    const name = `${file}: HorizontalPodAutoscaler ${object.metadata?.name}`;
    if (!target || ref?.apiVersion !== 'apps/v1') {
      problems.push(`${name}: scaleTargetRef ${ref?.apiVersion} ${ref?.kind}/${ref?.name} is no Deployment here`);
      continue;
    }
    // CPU utilization is measured against the request: a container without one cannot be scaled on it.
    for (const container of target.deployment.spec?.template.spec?.containers ?? []) {
      if (!container.resources?.requests?.cpu) problems.push(`${name}: container ${container.name} has no CPU request`);
    }
    for (const { object: pdb } of ofKind<IPodDisruptionBudget>(build, 'PodDisruptionBudget')) {
      const minAvailable = pdb.spec?.minAvailable;
      if (
        selects(pdb.spec?.selector?.matchLabels, podLabels(target.deployment)) &&
        typeof minAvailable === 'number' &&
        minAvailable >= (object.spec?.minReplicas ?? 1)
      ) {
        problems.push(`${name}: PodDisruptionBudget ${pdb.metadata?.name} would block every drain at minReplicas`);
      }
    }
  }
  for (const { file, object } of ofKind<INetworkPolicy>(build, 'NetworkPolicy')) {
    const name = `${file}: NetworkPolicy ${object.metadata?.name}`;
    if (anyPod(object.spec?.podSelector?.matchLabels).length === 0)
      problems.push(`${name}: its podSelector matches no pod`);
    for (const rule of object.spec?.ingress ?? []) {
      for (const peer of rule.from ?? []) {
        if (peer.podSelector && anyPod(peer.podSelector.matchLabels).length === 0) {
          problems.push(`${name}: an ingress podSelector matches no pod`);
        }
      }
    }
  }
  const services = ofKind<IService>(build, 'Service');
  for (const { file, object } of ofKind<ServiceMonitor>(build, 'ServiceMonitor')) {
    const name = `${file}: ServiceMonitor ${object.metadata.name}`;
    const selected = services.filter((s) => selects(object.spec.selector.matchLabels, s.object.metadata?.labels));
    if (selected.length === 0) problems.push(`${name}: its selector matches no Service's labels`);
    for (const endpoint of object.spec.endpoints) {
      for (const { object: service } of selected) {
        if (!(service.spec?.ports ?? []).some((p) => p.name === endpoint.port)) {
          problems.push(`${name}: Service ${service.metadata?.name} has no port named ${endpoint.port}`);
        }
      }
    }
  }
  return problems;
}

/** Every ConfigMap, Secret and ServiceAccount a pod uses is generated or defined; every image override is used. */
export function checkReferences(build: Build): string[] {
  const problems: string[] = [];
  const defined = (kind: 'ConfigMap' | 'Secret', name: string | undefined) =>
    name !== undefined &&
    (findGenerated(build, kind, name) !== undefined ||
      build.objects.some(({ object }) => object.kind === kind && object.metadata.name === name));
  const images = new Set<string>();
  for (const { file, deployment } of deployments(build)) {
    const where = `${file}: Deployment ${deployment.metadata?.name}`;
    const spec = deployment.spec?.template.spec;
    const account = spec?.serviceAccountName;
    if (
      account &&
      !build.objects.some(({ object }) => object.kind === 'ServiceAccount' && object.metadata.name === account)
    ) {
      problems.push(`${where}: ServiceAccount ${account} is not defined`);
    }
    for (const volume of spec?.volumes ?? []) {
      if (volume.configMap && !defined('ConfigMap', volume.configMap.name)) {
        problems.push(
          `${where}: volume ${volume.name} uses ConfigMap ${volume.configMap.name}, which is not generated or defined`,
        );
      }
      if (volume.secret && !defined('Secret', volume.secret.secretName)) {
        problems.push(
          `${where}: volume ${volume.name} uses Secret ${volume.secret.secretName}, which is not generated or defined`,
        );
      }
    }
    for (const container of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
      if (container.image) images.add(container.image.split(':')[0] as string);
      for (const variable of container.env ?? []) {
        const secret = variable.valueFrom?.secretKeyRef;
        const config = variable.valueFrom?.configMapKeyRef;
        if (secret && !defined('Secret', secret.name))
          problems.push(`${where}: ${variable.name} uses Secret ${secret.name}, which is not generated`);
        if (config && !defined('ConfigMap', config.name))
          problems.push(`${where}: ${variable.name} uses ConfigMap ${config.name}, which is not generated`);
      }
      const resolved = resolveEnvironment(build, deployment, container);
      problems.push(...resolved.problems.map((problem) => `${where}: ${problem}`));
    }
  }
  for (const image of build.images) {
    if (!images.has(image)) problems.push(`kustomization: images entry ${image} matches no container`);
  }
  return problems;
}

/** Non-root, read-only root, no capabilities, RuntimeDefault seccomp, requests and a memory limit: every container. */
export function checkSecurity(build: Build): string[] {
  const problems: string[] = [];
  for (const { file, deployment } of deployments(build)) {
    const pod = deployment.spec?.template.spec;
    // Service links shadow settings (a Service named `metrics` sets METRICS_PORT=tcp://…).
    if (pod?.enableServiceLinks !== false) problems.push(`${file}: enableServiceLinks is not false`);
    for (const container of pod?.containers ?? []) {
      const where = `${file}: container ${container.name}`;
      const security = container.securityContext;
      if ((security?.runAsNonRoot ?? pod?.securityContext?.runAsNonRoot) !== true)
        problems.push(`${where}: runAsNonRoot is not true`);
      if ((security?.runAsUser ?? pod?.securityContext?.runAsUser ?? 0) === 0)
        problems.push(`${where}: no non-zero runAsUser`);
      const seccomp = security?.seccompProfile?.type ?? pod?.securityContext?.seccompProfile?.type;
      if (seccomp !== 'RuntimeDefault') problems.push(`${where}: seccompProfile is ${seccomp}, not RuntimeDefault`);
      if (security?.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
      if (security?.allowPrivilegeEscalation !== false)
        problems.push(`${where}: allowPrivilegeEscalation is not false`);
      if (!security?.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities do not drop ALL`);
      if (security?.privileged) problems.push(`${where}: privileged`);
      const resources = container.resources;
      if (!resources?.requests?.cpu || !resources.requests.memory)
        problems.push(`${where}: no CPU and memory requests`);
      if (!resources?.limits?.memory) problems.push(`${where}: no memory limit`);
    }
  }
  return problems;
}

/** A ConfigMap mounted with subPath is a copy taken at start: it never sees an update, so hot reload would stop. */
export function checkConfigMapMounts(build: Build): string[] {
  const problems: string[] = [];
  for (const { file, deployment } of deployments(build)) {
    const volumes = deployment.spec?.template.spec?.volumes ?? [];
    for (const container of deployment.spec?.template.spec?.containers ?? []) {
      for (const mount of container.volumeMounts ?? []) {
        const volume = volumes.find((v) => v.name === mount.name);
        if (!volume) problems.push(`${file}: container ${container.name} mounts ${mount.name}, which is no volume`);
        else if (volume.configMap && mount.subPath) {
          problems.push(
            `${file}: container ${container.name} mounts ConfigMap ${volume.configMap.name} with subPath: updates never arrive`,
          );
        }
      }
    }
  }
  return problems;
}

/** Names the gateway reads: its CONFIG_FIELDS, the config file, per-subgraph overrides, OpenTelemetry's standard ones. */
export function isGatewaySetting(name: string): boolean {
  return (
    name === CONFIG_FILE_ENV ||
    CONFIG_FIELDS.some((field) => field.env === name) ||
    /^SUBGRAPH_[A-Z0-9_]+_(URL|TIMEOUT_MS|MAX_RESPONSE_BYTES)$/.test(name) ||
    name.startsWith('OTEL_')
  );
}

/** Every variable the gateway container sets is one the gateway reads (a misspelt one would silently do nothing). */
export function checkGatewayEnvNames(build: Build): string[] {
  const found = gatewayContainer(build);
  if (!found) return [`no Deployment ${GATEWAY.deployment} with a container ${GATEWAY.container}`];
  const names = [
    ...(found.container.env ?? []).map((variable) => variable.name),
    ...Object.keys(resolveEnvironment(build, found.deployment, found.container).env),
  ];
  return [...new Set(names)]
    .filter((name) => !isGatewaySetting(name))
    .map((name) => `gateway container: ${name} is not a setting the gateway reads`);
}

export interface ParsedGateway {
  config?: GatewayConfig;
  env: Record<string, string>;
  files: Map<string, string>;
  problems: string[];
}

/**
 * parseConfig on the gateway container's environment, as the process would see it in the pod
 * (working directory /app, the Dockerfile's WORKDIR; files from the mounted ConfigMaps).
 */
export function parseGatewayConfig(build: Build): ParsedGateway {
  const found = gatewayContainer(build);
  if (!found) return { env: {}, files: new Map(), problems: ['no gateway container'] };
  const { env, files, problems } = resolveEnvironment(build, found.deployment, found.container);
  const readFile = (path: string) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`ENOENT: ${path} is not mounted in the gateway container`);
    return text;
  };
  try {
    const config = parseConfig(env, { cwd: '/app', readFile });
    return { config, env, files, problems };
  } catch (error) {
    return { env, files, problems: [...problems, `parseConfig: ${(error as Error).message}`] };
  }
}

/** Settings that name a file the gateway reads. */
const FILE_SETTINGS = ['SUPERGRAPH_PATH', 'TRUSTED_DOCUMENTS', 'JWT_JWKS_FILE', CONFIG_FILE_ENV];

/** Probes, ports and the shutdown sequence agree with the gateway's own settings. */
export function checkGatewayWiring(build: Build): string[] {
  const found = gatewayContainer(build);
  const parsed = parseGatewayConfig(build);
  if (!found || !parsed.config) return parsed.problems;
  const { deployment, container } = found;
  const { config, env, files } = parsed;
  const problems: string[] = [];
  const portNumber = (port: number | string | undefined) =>
    typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;

  const probes: [string, IContainer['readinessProbe'], string][] = [
    // Holds liveness off until the process listens (the first supergraph loaded).
    ['startupProbe', container.startupProbe, '/health'],
    ['readinessProbe', container.readinessProbe, '/ready'],
    ['livenessProbe', container.livenessProbe, '/health'],
  ];
  for (const [name, probe, path] of probes) {
    if (probe?.httpGet?.path !== path)
      problems.push(`gateway ${name}: path is ${probe?.httpGet?.path}, expected ${path}`);
    if (portNumber(probe?.httpGet?.port) !== config.port) {
      problems.push(`gateway ${name}: port ${probe?.httpGet?.port} is not GATEWAY_LISTEN_PORT (${config.port})`);
    }
  }
  if (portNumber('http') !== config.port)
    problems.push(`gateway: container port http is not GATEWAY_LISTEN_PORT (${config.port})`);
  if (env.METRICS_ENABLED === 'true' && env.METRICS_PORT !== undefined) {
    if (String(portNumber('metrics')) !== env.METRICS_PORT) {
      problems.push(
        `gateway: container port metrics (${portNumber('metrics')}) is not METRICS_PORT (${env.METRICS_PORT})`,
      );
    }
  }
  for (const setting of FILE_SETTINGS) {
    const path = env[setting];
    if (path !== undefined && !files.has(path.startsWith('/') ? path : `/app/${path}`)) {
      problems.push(`gateway: ${setting}=${path} is not a file any mounted ConfigMap or Secret provides`);
    }
  }

  // preStop runs before SIGTERM; terminationGracePeriodSeconds counts from its start.
  const preStop = container.lifecycle?.preStop;
  const exec = preStop?.exec?.command;
  const sleepS = preStop?.sleep?.seconds ?? (exec?.[0] === 'sleep' ? Number(exec[1]) : undefined);
  if (sleepS === undefined) problems.push('gateway: no preStop sleep');
  else if (sleepS * 1000 !== config.shutdown.delayMs) {
    problems.push(`gateway: preStop sleeps ${sleepS} s but SHUTDOWN_DELAY_MS is ${config.shutdown.delayMs}`);
  }
  const grace = deployment.spec?.template.spec?.terminationGracePeriodSeconds ?? 30;
  const needed = (sleepS ?? 0) + (config.shutdown.delayMs + config.shutdown.graceMs) / 1000 + EXIT_MARGIN_S;
  if (grace < needed) {
    problems.push(
      `gateway: terminationGracePeriodSeconds ${grace} < preStop ${sleepS} s + SHUTDOWN_DELAY_MS + SHUTDOWN_GRACE_MS + ${EXIT_MARGIN_S} s = ${needed} s`,
    );
  }
  return problems;
}

/** SUBGRAPH_<NAME>_* overrides name subgraphs the mounted supergraph has (startup fails otherwise). */
export function checkSubgraphOverrides(build: Build): string[] {
  const parsed = parseGatewayConfig(build);
  if (!parsed.config) return parsed.problems;
  const sdl = parsed.files.get(parsed.config.supergraph.path) ?? '';
  const graphs = new Set(
    [...sdl.matchAll(/@join__graph\(name: "([^"]+)"/g)].map((match) => match[1]?.toUpperCase().replace(/-/g, '_')),
  );
  return Object.keys(parsed.config.subgraphs)
    .filter((name) => !graphs.has(name.toUpperCase()))
    .map((name) => `gateway: SUBGRAPH_${name.toUpperCase()}_* overrides ${name}, which the mounted supergraph lacks`);
}
