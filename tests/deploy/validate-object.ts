import { Ajv } from 'ajv';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { K8sObject } from './kustomize.js';

type Model = new (data: Record<string, unknown>) => { validate(): void };

/** The kinds the manifests may use, each with its kubernetes-models class (the API's OpenAPI schema). */
const MODELS: Record<string, Model> = {
  'apps/v1/Deployment': Deployment as unknown as Model,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as unknown as Model,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy as unknown as Model,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as unknown as Model,
  'v1/ConfigMap': ConfigMap as unknown as Model,
  'v1/Namespace': Namespace as unknown as Model,
  'v1/Secret': Secret as unknown as Model,
  'v1/Service': Service as unknown as Model,
  'v1/ServiceAccount': ServiceAccount as unknown as Model,
};

// The Prometheus Operator's CRD is not in kubernetes-models: the part of its schema we use,
// closed (additionalProperties: false) so a misspelt field fails.
const DURATION = '^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$';
const labelSelector = {
  type: 'object',
  additionalProperties: false,
  properties: {
    matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
    matchExpressions: { type: 'array' },
  },
};
const serviceMonitorSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
  properties: {
    apiVersion: { const: 'monitoring.coreos.com/v1' },
    kind: { const: 'ServiceMonitor' },
    metadata: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    spec: {
      type: 'object',
      required: ['selector', 'endpoints'],
      additionalProperties: false,
      properties: {
        selector: labelSelector,
        namespaceSelector: { type: 'object' },
        jobLabel: { type: 'string' },
        endpoints: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              port: { type: 'string', minLength: 1 },
              path: { type: 'string', pattern: '^/' },
              scheme: { enum: ['http', 'https'] },
              interval: { type: 'string', pattern: DURATION },
              scrapeTimeout: { type: 'string', pattern: DURATION },
              honorLabels: { type: 'boolean' },
              relabelings: { type: 'array' },
              metricRelabelings: { type: 'array' },
            },
          },
        },
      },
    },
  },
};
const validateServiceMonitor = new Ajv({ allErrors: true }).compile(serviceMonitorSchema);

/** Why `object` is not a valid object of its kind, or undefined when it is. Unknown kinds fail. */
export function invalidity(object: K8sObject): string | undefined {
  const key = `${object.apiVersion}/${object.kind}`;
  if (key === 'monitoring.coreos.com/v1/ServiceMonitor') {
    if (validateServiceMonitor(object)) return undefined;
    return (validateServiceMonitor.errors ?? []).map((error) => `${error.instancePath} ${error.message}`).join('; ');
  }
  const model = MODELS[key];
  if (!model) return `unknown kind ${key}: add its kubernetes-models class to tests/deploy/validate-object.ts`;
  try {
    new model(object).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
