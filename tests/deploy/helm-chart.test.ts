import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { available } from '@fedgw/test-support';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { describe, expect, it } from 'vitest';
import {
  checkConfigMapMounts,
  checkGatewayEnvNames,
  checkGatewayWiring,
  checkReferences,
  checkSecurity,
  checkSelectors,
  parseGatewayConfig,
} from './checks.js';
import { CHART, chartBuild, find, get, helm, kustomizeImage, RELEASE, refusal, render } from './helm.js';
import { componentDirs, DEPLOY_ROOT, type K8sObject, kustomize } from './kustomize.js';
import { invalidity } from './validate-object.js';

// deploy/helm/fedgw-gateway, linted and rendered by the real helm (`pnpm helm:install`), and held
// to the kustomize base: what the two must agree on is compared object by object (ADR 058).

const HELM = available('helm', import.meta.url);

const BASE = kustomize(DEPLOY_ROOT);
const REDIS_COMPONENT = kustomize(
  DEPLOY_ROOT,
  componentDirs().filter((dir) => dir.endsWith('/redis')),
);
const baseObject = (kind: string, name: string) => {
  const found = BASE.objects.find(({ object }) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`the kustomize base has no ${kind}/${name}`);
  return found.object;
};

const deployment = (objects: K8sObject[], name = RELEASE) => get(objects, 'Deployment', name) as unknown as IDeployment;
const container = (d: IDeployment) => d.spec?.template.spec?.containers[0] as IContainer;
const envNames = (c: IContainer) => (c.env ?? []).map((v) => v.name);
const secretRefs = (c: IContainer) =>
  (c.env ?? [])
    .filter((v) => v.valueFrom?.secretKeyRef)
    .map((v) => `${v.name}<-${v.valueFrom?.secretKeyRef?.name}/${v.valueFrom?.secretKeyRef?.key}`);

/** Every label of `selector` is in `labels` (the chart adds app.kubernetes.io/instance to the base's). */
const includesLabels = (labels: unknown, selector: unknown) =>
  expect(labels).toEqual(expect.objectContaining(selector as Record<string, string>));

const VARIANTS: { name: string; values: Record<string, string | number | boolean> }[] = [
  { name: 'the defaults', values: {} },
  { name: 'Redis from the Secret', values: { 'redis.enabled': true } },
  { name: "the chart's Redis", values: { 'redis.enabled': true, 'redis.deploy': true } },
  {
    name: 'a ServiceMonitor, no autoscaler',
    values: { 'metrics.serviceMonitor.enabled': true, 'autoscaling.enabled': false },
  },
];

describe.skipIf(!HELM)('deploy/helm/fedgw-gateway', () => {
  it('helm lint --strict passes, and with a bad value fails naming the field', () => {
    const lint = helm(['lint', '--strict', CHART]);
    expect(lint.stdout, lint.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(lint.status).toBe(0);
    const bad = helm(['lint', '--strict', CHART, '--set', 'replicaCount=three']);
    expect(bad.status).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toMatch(/at '\/replicaCount': got string, want integer/);
  });

  it.each(VARIANTS)('$name: every object is valid, and passes the checks the kustomize base passes', ({ values }) => {
    const objects = render(values);
    const invalid = objects
      .map((o) => `${o.kind}/${o.metadata.name}: ${invalidity(o)}`)
      .filter((s) => !/undefined$/.test(s));
    expect(invalid).toEqual([]);
    const build = chartBuild(objects);
    expect(checkSelectors(build)).toEqual([]);
    expect(checkReferences(build)).toEqual([]);
    expect(checkSecurity(build)).toEqual([]);
    expect(checkConfigMapMounts(build)).toEqual([]);
    expect(checkGatewayEnvNames(build)).toEqual([]);
    expect(parseGatewayConfig(build).problems).toEqual([]);
    expect(checkGatewayWiring(build)).toEqual([]);
    // The chart never holds a secret value: the operator creates the Secret.
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  describe('the same Deployment as the kustomize base', () => {
    // With Redis on (from the Secret) the chart's environment is the base's, which always names it.
    // Rendered when a test runs, not when the suite is collected (collected even when skipped).
    let rendered: IDeployment | undefined;
    const chart = () => {
      rendered ??= deployment(render({ 'redis.enabled': true }));
      return rendered;
    };
    const base = baseObject('Deployment', 'gateway') as unknown as IDeployment;

    it('the container: image, command (the memory flags), ports, env, resources, probes, preStop, security, mounts', () => {
      expect(container(chart())).toEqual({ ...container(base), image: kustomizeImage() });
      expect(container(chart()).command).toEqual([
        'node',
        '--max-semi-space-size=16',
        '--max-old-space-size=512',
        'server/dist/main.js',
      ]);
    });

    it('the pod: account, service links, grace period, security context, volumes, spread', () => {
      const { topologySpreadConstraints: chartSpread, containers: _c, ...chartPod } = chart().spec?.template.spec ?? {};
      const { topologySpreadConstraints: baseSpread, containers: _b, ...basePod } = base.spec?.template.spec ?? {};
      expect(chartPod).toEqual(basePod);
      expect(chartSpread?.map(({ labelSelector: _, ...rest }) => rest)).toEqual(
        baseSpread?.map(({ labelSelector: _, ...rest }) => rest),
      );
      includesLabels(chartSpread?.[0]?.labelSelector?.matchLabels, baseSpread?.[0]?.labelSelector?.matchLabels);
      includesLabels(chart().spec?.template.metadata?.labels, base.spec?.template.metadata?.labels);
    });

    it('the rollout: no replicas (the HPA owns them), the strategy, the history, the selector', () => {
      const {
        selector: chartSelector,
        template: _c,
        ...chartSpec
      } = chart().spec ?? ({} as NonNullable<IDeployment['spec']>);
      const {
        selector: baseSelector,
        template: _b,
        ...baseSpec
      } = base.spec ?? ({} as NonNullable<IDeployment['spec']>);
      expect(chartSpec).toEqual(baseSpec);
      expect(chartSpec).not.toHaveProperty('replicas');
      includesLabels(chartSelector.matchLabels, baseSelector.matchLabels);
    });
  });

  it('the same HPA, PDB, Service, ServiceAccount and ConfigMaps as the kustomize base', () => {
    const objects = render();
    const spec = (o: K8sObject) => o.spec as Record<string, unknown>;
    expect(spec(get(objects, 'HorizontalPodAutoscaler', RELEASE))).toEqual(
      spec(baseObject('HorizontalPodAutoscaler', 'gateway')),
    );
    const pdb = spec(get(objects, 'PodDisruptionBudget', RELEASE));
    const basePdb = spec(baseObject('PodDisruptionBudget', 'gateway'));
    expect(pdb.maxUnavailable).toBe(basePdb.maxUnavailable);
    includesLabels(
      (pdb.selector as { matchLabels: unknown }).matchLabels,
      (basePdb.selector as { matchLabels: unknown }).matchLabels,
    );
    const { selector, ...service } = spec(get(objects, 'Service', RELEASE));
    const { selector: baseSelector, ...baseService } = spec(baseObject('Service', 'gateway'));
    expect(service).toEqual(baseService);
    includesLabels(selector, baseSelector);
    expect(get(objects, 'ServiceAccount', RELEASE).automountServiceAccountToken).toBe(false);
    for (const generated of BASE.generated.filter((g) => g.kind === 'ConfigMap')) {
      expect(get(objects, 'ConfigMap', generated.name).data, generated.name).toEqual(
        Object.fromEntries(generated.data),
      );
    }
  });

  it('HPA and PDB: on CPU, 2 to 10 replicas, one pod drained at a time; off, the Deployment has replicaCount', () => {
    const hpa = get(render(), 'HorizontalPodAutoscaler', RELEASE).spec as Record<string, unknown>;
    expect(hpa).toMatchObject({
      minReplicas: 2,
      maxReplicas: 10,
      scaleTargetRef: { kind: 'Deployment', name: RELEASE },
    });
    expect(hpa.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
    expect(get(render(), 'PodDisruptionBudget', RELEASE).spec).toMatchObject({ maxUnavailable: 1 });
    const manual = render({ 'autoscaling.enabled': false, replicaCount: 3, 'podDisruptionBudget.enabled': false });
    expect(find(manual, 'HorizontalPodAutoscaler', RELEASE)).toBeUndefined();
    expect(find(manual, 'PodDisruptionBudget', RELEASE)).toBeUndefined();
    expect(deployment(manual).spec?.replicas).toBe(3);
  });
});

describe.skipIf(!HELM)('deploy/helm/fedgw-gateway: Redis', () => {
  const BASE_REFS = ['GATEWAY_API_KEYS<-gateway-secrets/API_KEYS', 'JWT_SECRET<-gateway-secrets/JWT_SECRET'];
  const baseEnv = envNames(container(baseObject('Deployment', 'gateway') as unknown as IDeployment));

  it('off by default: the base environment without GATEWAY_REDIS_URL, and no Redis objects', () => {
    const objects = render();
    const gateway = container(deployment(objects));
    expect(envNames(gateway)).toEqual(baseEnv.filter((name) => name !== 'GATEWAY_REDIS_URL'));
    expect(secretRefs(gateway)).toEqual(BASE_REFS);
    expect(objects.filter((o) => o.metadata.name.endsWith('redis'))).toEqual([]);
  });

  it("on: GATEWAY_REDIS_URL from the Secret's REDIS_URL (or the key named), still no Redis objects", () => {
    const objects = render({ 'redis.enabled': true });
    expect(secretRefs(container(deployment(objects)))).toEqual([
      ...BASE_REFS,
      'GATEWAY_REDIS_URL<-gateway-secrets/REDIS_URL',
    ]);
    expect(objects.filter((o) => o.metadata.name.endsWith('redis'))).toEqual([]);
    const named = render({
      'redis.enabled': true,
      'redis.urlKey': 'RATE_LIMIT_REDIS',
      'secrets.existingSecret': 'prod-gw',
    });
    expect(secretRefs(container(deployment(named)))).toEqual([
      'GATEWAY_API_KEYS<-prod-gw/API_KEYS',
      'JWT_SECRET<-prod-gw/JWT_SECRET',
      'GATEWAY_REDIS_URL<-prod-gw/RATE_LIMIT_REDIS',
    ]);
  });

  it("deployed: components/redis's Redis, the URL pointing at it, reachable from this release's gateway pods only", () => {
    const objects = render({ 'redis.enabled': true, 'redis.deploy': true });
    const gateway = container(deployment(objects));
    expect(secretRefs(gateway)).toEqual(BASE_REFS);
    expect(gateway.env?.find((v) => v.name === 'GATEWAY_REDIS_URL')?.value).toBe('redis://gateway-redis:6379');
    expect(envNames(gateway)).toEqual(baseEnv);
    const component = (kind: string) => {
      const found = REDIS_COMPONENT.objects.find(
        ({ object }) => object.kind === kind && object.metadata.name === 'redis',
      );
      if (!found) throw new Error(`components/redis has no ${kind}`);
      return found.object;
    };
    const redis = deployment(objects, 'gateway-redis');
    const componentRedis = component('Deployment') as unknown as IDeployment;
    expect(container(redis)).toEqual(container(componentRedis));
    expect(redis.spec?.template.spec).toEqual(componentRedis.spec?.template.spec);
    expect(redis.spec?.strategy).toEqual({ type: 'Recreate' });
    expect((get(objects, 'Service', 'gateway-redis').spec as { ports: unknown }).ports).toEqual(
      (component('Service').spec as { ports: unknown }).ports,
    );
    const policy = get(objects, 'NetworkPolicy', 'gateway-redis').spec as {
      ingress: { from: { podSelector: { matchLabels: Record<string, string> } }[]; ports: unknown }[];
    };
    expect(policy.ingress[0]?.ports).toEqual((component('NetworkPolicy').spec as typeof policy).ingress[0]?.ports);
    expect(policy.ingress[0]?.from[0]?.podSelector.matchLabels).toEqual(deployment(objects).spec?.selector.matchLabels);
  });
});

describe.skipIf(!HELM)('deploy/helm/fedgw-gateway: bad values are refused, naming the field', () => {
  it.each([
    ['a word for a count', { replicaCount: 'three' }, /at '\/replicaCount': got string, want integer/],
    ['a negative memory limit', { 'resources.limits.memory': '-768Mi' }, /at '\/resources\/limits\/memory'/],
    ['a negative heap cap', { 'memory.maxOldSpaceMiB': -512 }, /at '\/memory\/maxOldSpaceMiB': minimum/],
    ['a misspelt field', { 'rateLimt.max': 5 }, /additional properties 'rateLimt' not allowed/],
    ['a failure mode the gateway lacks', { 'rateLimit.failureMode': 'sometimes' }, /at '\/rateLimit\/failureMode'/],
    ['a CPU target over 100%', { 'autoscaling.targetCPUUtilizationPercentage': 170 }, /targetCPUUtilizationPercentage/],
    [
      'a grace period shorter than the shutdown',
      { 'gateway.terminationGracePeriodSeconds': 20 },
      /gateway.terminationGracePeriodSeconds: 20 < /,
    ],
    [
      'more minimum than maximum replicas',
      { 'autoscaling.minReplicas': 12 },
      /autoscaling.minReplicas: 12 is more than/,
    ],
    ['a Redis to deploy but not use', { 'redis.deploy': true }, /redis.deploy: true needs redis.enabled/],
  ])('%s', (_what, values, expected) => {
    expect(refusal(values)).toMatch(expected);
  });

  it('the values that matter change what they should', () => {
    const gateway = container(
      deployment(
        render({
          'memory.maxOldSpaceMiB': 1024,
          'gateway.shutdown.delayMs': 8000,
          'gateway.terminationGracePeriodSeconds': 40,
        }),
      ),
    );
    expect(gateway.command).toContain('--max-old-space-size=1024');
    expect(gateway.lifecycle?.preStop?.sleep?.seconds).toBe(8);
    expect(gateway.env?.find((v) => v.name === 'SHUTDOWN_DELAY_MS')?.value).toBe('8000');
  });

  it('Kubernetes 1.30 at least (the kubelet sleep preStop); an existing ConfigMap replaces the shipped supergraph', () => {
    expect(helm(['template', RELEASE, CHART, '--kube-version', '1.30.0']).status).toBe(0);
    expect(helm(['template', RELEASE, CHART, '--kube-version', '1.29.0']).stderr).toMatch(
      /requires kubeVersion: >=1.30/,
    );
    const objects = render({ 'supergraph.existingConfigMap': 'my-graph' });
    expect(find(objects, 'ConfigMap', 'gateway-supergraph')).toBeUndefined();
    const volumes = deployment(objects).spec?.template.spec?.volumes ?? [];
    expect(volumes.find((v) => v.name === 'supergraph')?.configMap?.name).toBe('my-graph');
  });

  it('values.yaml holds no secret value: the Secret is named, never filled', () => {
    const text = readFileSync(join(CHART, 'values.yaml'), 'utf8');
    expect(text).not.toMatch(/^\s*(password|token|jwtSecret|apiKeys?|redisUrl|url):\s*\S/im);
    expect(text).not.toMatch(/(redis|rediss):\/\//);
  });
});
