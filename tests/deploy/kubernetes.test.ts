import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { COMPLEX_QUERY, GET_USER_WITH_PRODUCTS } from '@fedgw/subgraphs';
import { ROOT } from '@fedgw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  checkConfigMapMounts,
  checkGatewayEnvNames,
  checkGatewayWiring,
  checkReferences,
  checkSecurity,
  checkSelectors,
  checkSubgraphOverrides,
  parseGatewayConfig,
} from './checks.js';
import { type Build, componentDirs, DEPLOY_ROOT, type K8sObject, kustomize, rel, yamlFiles } from './kustomize.js';
import { deployments, gatewayContainer } from './pods.js';
import { invalidity } from './validate-object.js';

// deploy/kubernetes read offline: the base alone, with each optional component, and with all of
// them, as `kubectl apply -k` would see them. No cluster.

const COMPONENTS = componentDirs();
const VARIANTS: { name: string; components: string[] }[] = [
  { name: 'the base', components: [] },
  ...COMPONENTS.map((dir) => ({ name: `the base + ${basename(dir)}`, components: [dir] })),
  { name: 'the base + every component', components: COMPONENTS },
];

/** The generated ConfigMaps and Secrets as the objects kustomize would emit. */
function generatedObjects(build: Build): K8sObject[] {
  return build.generated.map(({ kind, name, data }) => ({
    apiVersion: 'v1',
    kind,
    metadata: { name },
    data: Object.fromEntries(
      [...data].map(([key, value]) => [key, kind === 'Secret' ? Buffer.from(value).toString('base64') : value]),
    ),
  }));
}

describe.each(VARIANTS)('deploy/kubernetes: $name', ({ components }) => {
  const build = kustomize(DEPLOY_ROOT, components);

  it('resolves: every listed resource, component, generator and patch file exists', () => {
    expect(build.problems).toEqual([]);
    expect(build.objects.length).toBeGreaterThan(0);
  });

  it('every object is valid for its apiVersion and kind (kubernetes-models; known kinds only)', () => {
    const invalid = [
      ...build.objects.map(({ file, object }) => ({ file, object })),
      ...generatedObjects(build).map((object) => ({ file: 'generated', object })),
    ]
      .map(({ file, object }) => ({ at: `${file}: ${object.kind}/${object.metadata?.name}`, why: invalidity(object) }))
      .filter(({ why }) => why !== undefined);
    expect(invalid).toEqual([]);
  });

  it('selectors of Services, the PodDisruptionBudget, the HPA target and policies match the pods', () => {
    expect(checkSelectors(build)).toEqual([]);
  });

  it('every ConfigMap, Secret (and key) and ServiceAccount a pod references is generated or defined', () => {
    expect(checkReferences(build)).toEqual([]);
  });

  it('no service links; every container is non-root, read-only, without capabilities, RuntimeDefault seccomp, with requests and a memory limit', () => {
    expect(checkSecurity(build)).toEqual([]);
  });

  it('ConfigMaps are mounted as directories, never with subPath (which never updates)', () => {
    expect(checkConfigMapMounts(build)).toEqual([]);
  });

  it('every environment variable of the gateway container is one the gateway reads', () => {
    expect(checkGatewayEnvNames(build)).toEqual([]);
  });

  it('the gateway configuration parses, with the .example secrets and the mounted files', () => {
    const parsed = parseGatewayConfig(build);
    expect(parsed.problems).toEqual([]);
    expect(parsed.config?.supergraph.path).toBe('/etc/gateway/supergraph/supergraph.graphql');
    expect(checkSubgraphOverrides(build)).toEqual([]);
  });

  it('probes, ports and the shutdown sequence agree with the gateway settings', () => {
    expect(checkGatewayWiring(build)).toEqual([]);
  });
});

describe('deploy/kubernetes: files', () => {
  const all = kustomize(DEPLOY_ROOT, COMPONENTS);

  it('every YAML file belongs to the base or a component', () => {
    const orphans = yamlFiles(DEPLOY_ROOT)
      .filter((file) => !all.files.has(file))
      .map(rel);
    expect(orphans).toEqual([]);
  });

  it("the supergraph ConfigMap's file is the repository's supergraph.graphql", () => {
    const copy = readFileSync(join(DEPLOY_ROOT, 'files', 'supergraph.sdl'), 'utf8');
    expect(copy, 'pnpm supergraph writes it').toBe(readFileSync(join(ROOT, 'supergraph.graphql'), 'utf8'));
  });

  it("the trusted-documents manifest holds the demo's operations, each id the SHA-256 of its body", () => {
    const manifest = JSON.parse(readFileSync(join(DEPLOY_ROOT, 'files', 'trusted-documents.json'), 'utf8')) as {
      format: string;
      version: number;
      operations: { id: string; name: string; type: string; body: string }[];
    };
    expect(manifest.format).toBe('apollo-persisted-query-manifest');
    expect(manifest.version).toBe(1);
    for (const operation of manifest.operations) {
      expect(operation.id, operation.name).toBe(createHash('sha256').update(operation.body).digest('hex'));
    }
    expect(manifest.operations.map((operation) => operation.body).sort()).toEqual(
      [COMPLEX_QUERY, GET_USER_WITH_PRODUCTS].sort(),
    );
  });

  it("containers run a script the Dockerfile's runtime stage ships, as its user", () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.search(/^FROM .* AS runtime$/m));
    const shipped = [...runtime.matchAll(/^COPY --from=\S+ \S+ (\S+)$/gm)].map((match) => match[1] as string);
    expect(runtime).toMatch(/^USER node$/m);
    const wrong = deployments(all)
      .filter(({ deployment }) =>
        deployment.spec?.template.spec?.containers[0]?.image?.startsWith('ghcr.io/example/fedgw-gateway'),
      )
      .flatMap(({ file, deployment }) =>
        (deployment.spec?.template.spec?.containers ?? []).flatMap((container) => {
          const script = container.command?.find((arg) => arg.endsWith('.js'));
          const user =
            container.securityContext?.runAsUser ?? deployment.spec?.template.spec?.securityContext?.runAsUser;
          return [
            ...(script && shipped.some((dir) => script.startsWith(`${dir}/`))
              ? []
              : [`${file}: ${script} is not in the image`]),
            // The node user of the official node images.
            ...(user === 1000 ? [] : [`${file}: runs as ${user}, not the image's node user (1000)`]),
          ];
        }),
      );
    expect(wrong).toEqual([]);
  });
});

const INTACT = kustomize(DEPLOY_ROOT, COMPONENTS);

/** A build of the base and every component, cloned so each case breaks its own copy. */
function broken(mutate: (build: Build) => void): Build {
  const build = structuredClone(INTACT);
  mutate(build);
  return build;
}

function object(build: Build, kind: string, name: string): K8sObject {
  const found = build.objects.find((o) => o.object.kind === kind && o.object.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name}`);
  return found.object;
}

/**
 * Sets (or, with undefined, deletes) the value at a dotted path; `[name]` picks a list item by
 * its name. Throws when the path does not lead anywhere (only a set's last key may be new), so
 * a case cannot silently break nothing.
 */
function set(root: unknown, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = root as Record<string, unknown>;
  for (const [index, key] of keys.entries()) {
    const byName = /^\[(.+)\]$/.exec(key)?.[1];
    const slot = byName
      ? String((node as unknown as { name?: string }[]).findIndex((item) => item?.name === byName))
      : key;
    const last = index === keys.length - 1;
    if (!(slot in node) && !(last && value !== undefined && !byName)) throw new Error(`${path}: no ${key}`);
    if (last) {
      if (value === undefined) delete node[slot];
      else node[slot] = value;
    } else node = node[slot] as Record<string, unknown>;
  }
}

const GATEWAY_CONTAINER = 'spec.template.spec.containers.[gateway]';

function setEnv(build: Build, name: string, value: string): void {
  const gateway = object(build, 'Deployment', 'gateway');
  try {
    set(gateway, `${GATEWAY_CONTAINER}.env.[${name}].value`, value);
  } catch {
    (gatewayContainer(build)?.container.env ?? []).push({ name, value });
  }
}

/** [what breaks, kind, name, path, value]: one field of one object set to a wrong value. */
type FieldCase = [string, string, string, string, unknown, (build: Build) => string[], RegExp];
const FIELD_CASES: FieldCase[] = [
  [
    'readiness on /health',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.readinessProbe.httpGet.path`,
    '/health',
    checkGatewayWiring,
    /readinessProbe: path is \/health/,
  ],
  [
    'startup probe on the metrics path',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.startupProbe.httpGet.path`,
    '/metrics',
    checkGatewayWiring,
    /startupProbe: path is \/metrics, expected \/health/,
  ],
  [
    'liveness on another port',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.livenessProbe.httpGet.port`,
    4001,
    checkGatewayWiring,
    /livenessProbe: port 4001 is not GATEWAY_LISTEN_PORT/,
  ],
  [
    'preStop shorter than the delay',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.lifecycle.preStop.sleep.seconds`,
    3,
    checkGatewayWiring,
    /preStop sleeps 3 s but SHUTDOWN_DELAY_MS is 5000/,
  ],
  [
    'grace period too short',
    'Deployment',
    'gateway',
    'spec.template.spec.terminationGracePeriodSeconds',
    20,
    checkGatewayWiring,
    /terminationGracePeriodSeconds 20 < /,
  ],
  [
    'a secret key the example lacks',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.env.[GATEWAY_REDIS_URL].valueFrom.secretKeyRef.key`,
    'REDIS',
    checkReferences,
    /Secret gateway-secrets has no key REDIS/,
  ],
  [
    'a ConfigMap nobody generates',
    'Deployment',
    'gateway',
    'spec.template.spec.volumes.[supergraph].configMap.name',
    'supergraph',
    checkReferences,
    /ConfigMap supergraph, which is not generated/,
  ],
  [
    'a ServiceAccount nobody defines',
    'Deployment',
    'gateway',
    'spec.template.spec.serviceAccountName',
    'gw',
    checkReferences,
    /ServiceAccount gw is not defined/,
  ],
  [
    'a subPath ConfigMap mount',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.volumeMounts.[supergraph].subPath`,
    'supergraph.graphql',
    checkConfigMapMounts,
    /mounts ConfigMap gateway-supergraph with subPath/,
  ],
  [
    'a writable root filesystem',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.securityContext.readOnlyRootFilesystem`,
    false,
    checkSecurity,
    /readOnlyRootFilesystem/,
  ],
  [
    'service links on (a Service named metrics would set METRICS_PORT)',
    'Deployment',
    'demo-users',
    'spec.template.spec.enableServiceLinks',
    true,
    checkSecurity,
    /enableServiceLinks is not false/,
  ],
  [
    'capabilities kept',
    'Deployment',
    'redis',
    'spec.template.spec.containers.[redis].securityContext.capabilities',
    {},
    checkSecurity,
    /redis: capabilities do not drop ALL/,
  ],
  [
    'no seccomp profile',
    'Deployment',
    'demo-users',
    'spec.template.spec.securityContext.seccompProfile',
    undefined,
    checkSecurity,
    /users: seccompProfile is undefined/,
  ],
  [
    'running as root',
    'Deployment',
    'gateway',
    'spec.template.spec.securityContext.runAsNonRoot',
    false,
    checkSecurity,
    /runAsNonRoot is not true/,
  ],
  [
    'no memory limit',
    'Deployment',
    'gateway',
    `${GATEWAY_CONTAINER}.resources.limits`,
    undefined,
    checkSecurity,
    /no memory limit/,
  ],
  [
    'a Deployment selecting other pods',
    'Deployment',
    'gateway',
    'spec.selector.matchLabels',
    { app: 'gw' },
    checkSelectors,
    /Deployment gateway: its selector does not match its own pod labels/,
  ],
  [
    'a Service selecting nothing',
    'Service',
    'gateway',
    'spec.selector',
    { app: 'gw' },
    checkSelectors,
    /Service gateway: its selector matches no pod/,
  ],
  [
    'a Service port to no container port',
    'Service',
    'gateway',
    'spec.ports.[metrics].targetPort',
    'metric',
    checkSelectors,
    /targets metric/,
  ],
  [
    'a PDB selecting nothing',
    'PodDisruptionBudget',
    'gateway',
    'spec.selector.matchLabels',
    { app: 'gw' },
    checkSelectors,
    /PodDisruptionBudget gateway: its selector matches no pod/,
  ],
  [
    'an HPA on another Deployment',
    'HorizontalPodAutoscaler',
    'gateway',
    'spec.scaleTargetRef.name',
    'gw',
    checkSelectors,
    /scaleTargetRef apps\/v1 Deployment\/gw/,
  ],
  [
    'a ServiceMonitor on a port the Service lacks',
    'ServiceMonitor',
    'gateway',
    'spec.endpoints.0.port',
    'metric',
    checkSelectors,
    /no port named metric/,
  ],
  [
    'a ServiceMonitor selecting no Service',
    'ServiceMonitor',
    'gateway',
    'spec.selector.matchLabels',
    { app: 'gw' },
    checkSelectors,
    /ServiceMonitor gateway: its selector matches no Service/,
  ],
  [
    'a NetworkPolicy letting in nobody',
    'NetworkPolicy',
    'redis',
    'spec.ingress.0.from.0.podSelector.matchLabels',
    { app: 'gw' },
    checkSelectors,
    /ingress podSelector matches no pod/,
  ],
];

/** [what breaks, variable, value]: one gateway environment variable set to a wrong value. */
type EnvCase = [string, string, string, (build: Build) => string[], RegExp];
const ENV_CASES: EnvCase[] = [
  [
    'GATEWAY_LISTEN_PORT not the container port',
    'GATEWAY_LISTEN_PORT',
    '8080',
    checkGatewayWiring,
    /container port http is not GATEWAY_LISTEN_PORT \(8080\)/,
  ],
  ['metrics port not METRICS_PORT', 'METRICS_PORT', '9465', checkGatewayWiring, /not METRICS_PORT \(9465\)/],
  [
    'a longer SHUTDOWN_GRACE_MS',
    'SHUTDOWN_GRACE_MS',
    '25000',
    checkGatewayWiring,
    /terminationGracePeriodSeconds 30 < /,
  ],
  [
    'supergraph path not mounted',
    'SUPERGRAPH_PATH',
    '/etc/gateway/supergraph.graphql',
    checkGatewayWiring,
    /SUPERGRAPH_PATH=.* is not a file/,
  ],
  [
    'trusted documents not mounted',
    'TRUSTED_DOCUMENTS',
    '/etc/gateway/manifest.json',
    checkGatewayWiring,
    /TRUSTED_DOCUMENTS=.* is not a file/,
  ],
  ['a misspelt variable', 'SHUTDOWN_DELAY', '5000', checkGatewayEnvNames, /SHUTDOWN_DELAY is not a setting/],
  [
    'a value the parser refuses',
    'RATE_LIMIT_FAILURE_MODE',
    'sometimes',
    (b) => parseGatewayConfig(b).problems,
    /RATE_LIMIT_FAILURE_MODE/,
  ],
  [
    'an override for a subgraph the supergraph lacks',
    'SUBGRAPH_ACCOUNTS_URL',
    'http://accounts:4004/graphql',
    checkSubgraphOverrides,
    /ACCOUNTS/,
  ],
];

describe('deploy/kubernetes: each check catches a broken copy', () => {
  it.each(FIELD_CASES)('%s', (_what, kind, name, path, value, check, expected) => {
    expect(check(INTACT).join('\n')).not.toMatch(expected);
    expect(check(broken((b) => set(object(b, kind, name), path, value))).join('\n')).toMatch(expected);
  });

  it.each(ENV_CASES)('%s', (_what, variable, value, check, expected) => {
    expect(check(INTACT).join('\n')).not.toMatch(expected);
    expect(check(broken((b) => setEnv(b, variable, value))).join('\n')).toMatch(expected);
  });

  it('the schema check: a wrong type, a misspelt ServiceMonitor field, an unknown kind', () => {
    const build = broken((b) => {
      set(object(b, 'Deployment', 'gateway'), `${GATEWAY_CONTAINER}.ports.[http].containerPort`, '4000');
      const endpoint = (object(b, 'ServiceMonitor', 'gateway').spec as { endpoints: Record<string, unknown>[] })
        .endpoints[0];
      if (endpoint) endpoint.intervall = '30s';
    });
    expect(invalidity(object(build, 'Deployment', 'gateway'))).toMatch(/containerPort must be integer/);
    expect(invalidity(object(build, 'ServiceMonitor', 'gateway'))).toMatch(/additional properties/);
    expect(invalidity({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'x' } })).toMatch(
      /unknown kind/,
    );
  });

  describe('the kustomization reader', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fedgw-kustomize-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reports missing files, files outside its directory, committed secrets and unknown fields', () => {
      const base = join(dir, 'base');
      mkdirSync(base);
      writeFileSync(join(dir, 'outside.graphql'), 'type Query { a: Int }');
      writeFileSync(join(base, 'secrets.env'), 'TOKEN=x\n');
      writeFileSync(
        join(base, 'kustomization.yaml'),
        [
          'apiVersion: kustomize.config.k8s.io/v1beta1',
          'kind: Kustomization',
          'resource: [typo.yaml]',
          'resources: [missing.yaml]',
          'components: [components/none]',
          'configMapGenerator: [{ name: sdl, files: [../outside.graphql] }]',
          'secretGenerator: [{ name: s, envs: [secrets.env] }, { name: t, literals: [TOKEN=x] }]',
        ].join('\n'),
      );
      const problems = kustomize(base).problems.join('\n');
      expect(problems).toMatch(/unexpected field resource/);
      expect(problems).toMatch(/missing.yaml does not exist/);
      expect(problems).toMatch(/component components\/none does not exist/);
      expect(problems).toMatch(/outside.graphql is outside the kustomization's directory/);
      expect(problems).toMatch(/secrets.env holds secrets but is not git-ignored/);
      expect(problems).toMatch(/secrets.env.example .* does not exist/);
      expect(problems).toMatch(/Secret t has literals/);
    });
  });
});

// kubectl is not part of the project's toolchain (CI may not have it); where it is, its own
// kustomize builds the same objects as the reader above, so the reader cannot drift from it.
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
describe.skipIf(!kubectl)('deploy/kubernetes: kubectl kustomize (when kubectl is installed)', () => {
  it('builds the base with every component, and emits exactly the objects the reader resolved', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fedgw-kubectl-'));
    try {
      cpSync(DEPLOY_ROOT, join(dir, 'base'), { recursive: true });
      cpSync(join(DEPLOY_ROOT, 'secrets.env.example'), join(dir, 'base', 'secrets.env'));
      mkdirSync(join(dir, 'all'));
      writeFileSync(
        join(dir, 'all', 'kustomization.yaml'),
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../base]\ncomponents:\n${COMPONENTS.map((c) => `  - ../base/components/${basename(c)}\n`).join('')}`,
      );
      const result = spawnSync('kubectl', ['kustomize', join(dir, 'all')], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      const emitted = parseAllDocuments(result.stdout)
        .map((doc) => doc.toJS() as K8sObject)
        .map((o) => `${o.kind}/${o.metadata.name.replace(/^(gateway-secrets)-[a-z0-9]{10}$/, '$1')}`);
      const build = kustomize(DEPLOY_ROOT, COMPONENTS);
      const resolved = [...build.objects.map(({ object }) => object), ...generatedObjects(build)].map(
        (o) => `${o.kind}/${o.metadata.name}`,
      );
      expect(emitted.sort()).toEqual(resolved.sort());
      // The patch reached the gateway: kustomize merged the demo's subgraph URLs into its env.
      expect(result.stdout).toContain('SUBGRAPH_USERS_URL');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/overlays/demo: the overlay docs/kubernetes.md follows', () => {
  const build = kustomize(join(ROOT, 'deploy', 'overlays', 'demo'));

  it('resolves: the base, the demo subgraphs, Redis and its namespace', () => {
    expect(build.problems).toEqual([]);
    const names = build.objects.map(({ object }) => `${object.kind}/${object.metadata?.name}`);
    expect(names).toEqual(
      expect.arrayContaining(['Namespace/fedgw', 'Deployment/gateway', 'Deployment/demo-users', 'Deployment/redis']),
    );
  });

  it('every object is valid, and the pods pass the same checks as the base', () => {
    const invalid = build.objects
      .map(({ file, object }) => ({ at: `${file}: ${object.kind}/${object.metadata?.name}`, why: invalidity(object) }))
      .filter(({ why }) => why !== undefined);
    expect(invalid).toEqual([]);
    expect(checkSecurity(build)).toEqual([]);
    expect(checkSelectors(build)).toEqual([]);
    expect(checkReferences(build)).toEqual([]);
  });

  it('names the image the docs build and load (fedgw-gateway:local), not the placeholder', () => {
    const text = readFileSync(join(ROOT, 'deploy', 'overlays', 'demo', 'kustomization.yaml'), 'utf8');
    expect(text).toMatch(/name: ghcr\.io\/example\/fedgw-gateway\n\s+newName: fedgw-gateway\n\s+newTag: local/);
    expect(build.images).toContain('ghcr.io/example/fedgw-gateway');
  });
});
