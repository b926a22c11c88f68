/**
 * The deployment files' per-subgraph parts, written from catalog.ts by `pnpm supergraph`
 * (compose.js --write) and checked by `pnpm supergraph:check`, so adding a subgraph edits no
 * deployment file by hand:
 * - the Kubernetes copy of the supergraph (deploy/kubernetes/files/supergraph.sdl);
 * - the demo-subgraphs component: a Deployment and Service each, and the gateway's
 *   SUBGRAPH_<NAME>_URL patch;
 * - docker-compose.yml: between `# --- begin generated: <id>` and `# --- end generated: <id>`,
 *   the subgraph URLs, the gateways' dependencies and one service each.
 * The Dockerfile copies subgraphs/src whole, so it names no subgraph.
 */
import { readFileSync } from 'node:fs';
import { SUBGRAPHS } from './catalog.js';

export interface DerivedFile {
  readonly url: URL;
  /** The file as it must be, given its current text (null: missing). */
  readonly render: (current: string | null) => string;
}

const repoFile = (path: string) => new URL(`../../${path}`, import.meta.url);
const DEMO_SUBGRAPHS = 'deploy/kubernetes/components/demo-subgraphs';
const GENERATED =
  '# Written by `pnpm supergraph` from subgraphs/src/catalog.ts: edit the template there, not this file.';
const envName = (name: string) => `SUBGRAPH_${name.toUpperCase()}_URL`;

/** Every file derived from the catalog and the composed supergraph. */
export function derivedFiles(supergraphSdl: string): DerivedFile[] {
  return [
    { url: repoFile('deploy/kubernetes/files/supergraph.sdl'), render: () => supergraphSdl },
    { url: repoFile(`${DEMO_SUBGRAPHS}/subgraphs.yaml`), render: () => kubernetesSubgraphs() },
    { url: repoFile(`${DEMO_SUBGRAPHS}/gateway-subgraph-urls.yaml`), render: () => kubernetesSubgraphUrls() },
    { url: repoFile('docker-compose.yml'), render: (current) => composeFile(current ?? '') },
  ];
}

/** The files whose text differs from what they must be (paths from the repository root). */
export function staleDerivedFiles(supergraphSdl: string): string[] {
  return derivedFiles(supergraphSdl)
    .filter(({ url, render }) => {
      const current = readOrNull(url);
      return current !== render(current);
    })
    .map(({ url }) => url.pathname.slice(repoFile('').pathname.length));
}

export function readOrNull(url: URL): string | null {
  try {
    return readFileSync(url, 'utf8');
  } catch {
    return null;
  }
}

function kubernetesSubgraphs(): string {
  const documents = SUBGRAPHS.map(
    ({ name, port }) => `# The demo's ${name} subgraph: the subgraphs image (the Dockerfile's \`subgraphs\` target) with
# the subgraph's entry point (as in docker-compose.yml).
apiVersion: apps/v1
kind: Deployment
metadata:
  name: demo-${name}
  labels:
    app.kubernetes.io/name: demo-${name}
    app.kubernetes.io/component: subgraph
    app.kubernetes.io/part-of: fedgw
spec:
  replicas: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: demo-${name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: demo-${name}
        app.kubernetes.io/component: subgraph
        app.kubernetes.io/part-of: fedgw
    spec:
      automountServiceAccountToken: false
      enableServiceLinks: false
      securityContext:
        runAsNonRoot: true
        runAsUser: 1000
        runAsGroup: 1000
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: ${name}
          image: ghcr.io/example/fedgw-subgraphs
          imagePullPolicy: IfNotPresent
          command: ["node", "subgraphs/dist/${name}/main.js"]
          env:
            - name: HOST
              value: 0.0.0.0
            - name: PORT
              value: "${port}"
          ports:
            - name: http
              containerPort: ${port}
              protocol: TCP
          readinessProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: 5
          livenessProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: 10
            timeoutSeconds: 5
          resources:
            requests:
              cpu: 250m
              memory: 192Mi
            limits:
              memory: 384Mi
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: ["ALL"]
---
apiVersion: v1
kind: Service
metadata:
  name: demo-${name}
  labels:
    app.kubernetes.io/name: demo-${name}
    app.kubernetes.io/part-of: fedgw
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: demo-${name}
  ports:
    - name: http
      port: ${port}
      targetPort: http
      protocol: TCP
`,
  );
  return `${GENERATED}\n${documents.join('---\n')}`;
}

function kubernetesSubgraphUrls(): string {
  const env = SUBGRAPHS.map(
    ({ name, port }) => `            - name: ${envName(name)}
              value: http://demo-${name}:${port}/graphql`,
  );
  return `${GENERATED}
# SUBGRAPH_<NAME>_URL overrides the supergraph's URL for that subgraph (Apollo Router's
# override_subgraph_url); env entries merge by name into the base's list.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gateway
spec:
  template:
    spec:
      containers:
        - name: gateway
          env:
${env.join('\n')}
`;
}

function composeFile(current: string): string {
  const anchors = [
    'x-subgraph-urls: &subgraph-urls',
    ...SUBGRAPHS.map(({ name, port }) => `  ${envName(name)}: http://${name}:${port}/graphql`),
    '',
    'x-gateway-depends-on: &gateway-depends-on',
    ...SUBGRAPHS.flatMap(({ name }) => [`  ${name}:`, '    condition: service_healthy']),
  ].join('\n');
  const services = SUBGRAPHS.map(
    ({ name, port }) => `  ${name}:
    <<: *subgraphs-image
    command: ["node", "subgraphs/dist/${name}/main.js"]
    environment:
      HOST: 0.0.0.0
      PORT: "${port}"
    ports: ["${port}:${port}"]
    healthcheck:
      <<: *node-healthcheck
      test:
        [
          "CMD",
          "node",
          "-e",
          "fetch('http://127.0.0.1:${port}/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))",
        ]`,
  ).join('\n\n');
  return replaceRegion(replaceRegion(current, 'subgraph-anchors', anchors), 'subgraph-services', services);
}

/** Replaces the lines between a region's markers, which must be there. */
function replaceRegion(text: string, id: string, body: string): string {
  const begin = `# --- begin generated: ${id}`;
  const end = `# --- end generated: ${id}`;
  const pattern = new RegExp(`(^[ \\t]*${begin}[^\\n]*\\n)[\\s\\S]*?(^[ \\t]*${end})`, 'm');
  if (!pattern.test(text)) throw new Error(`docker-compose.yml has lost its "${begin}" … "${end}" lines`);
  return text.replace(pattern, (_all, head: string, tail: string) => `${head}${body}\n${tail}`);
}
