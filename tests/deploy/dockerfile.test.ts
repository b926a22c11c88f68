// The gateway image's own metadata, read from the Dockerfile (no Docker engine on CI): OCI
// labels, the ports it exposes (the Deployment's metrics port among them), and a HEALTHCHECK
// whose command is run here against a real gateway, and against a closed port.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { closedPortUrl, ROOT, type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

/** The runtime stage's logical lines (`\` continuations joined, comments dropped). */
function runtimeStage(): string[] {
  const text = readFileSync(`${ROOT}Dockerfile`, 'utf8').replace(/\\\n\s*/g, ' ');
  const stages = text.split(/^FROM /m);
  const runtime = stages.find((stage) => /^\S+\s+AS\s+runtime\b/i.test(stage)) ?? '';
  return runtime.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}
const instruction = (name: string) => runtimeStage().filter((line) => line.startsWith(`${name} `));

describe('Dockerfile: the runtime image', () => {
  it('carries the OCI labels, version and revision from build arguments', () => {
    const labels = instruction('LABEL').join(' ');
    for (const key of ['title', 'description', 'version', 'revision']) {
      expect(labels).toMatch(new RegExp(`org\\.opencontainers\\.image\\.${key}="[^"]+"`));
    }
    // Docker expands the build argument; the Dockerfile writes the placeholder.
    expect(labels).toContain(`org.opencontainers.image.version="\${VERSION}"`);
    expect(instruction('ARG')).toEqual(['ARG VERSION=dev', 'ARG REVISION=unknown']);
  });

  it("exposes the GraphQL port and the Deployment's metrics port", () => {
    const exposed = instruction('EXPOSE').flatMap((line) => line.split(/\s+/).slice(1));
    const deployment = parseAllDocuments(readFileSync(`${ROOT}deploy/kubernetes/deployment.yaml`, 'utf8'))
      .map((doc) => doc.toJS())
      .find((doc) => doc?.kind === 'Deployment');
    const ports = deployment.spec.template.spec.containers[0].ports as { name: string; containerPort: number }[];
    expect(exposed.sort()).toEqual(ports.map((port) => String(port.containerPort)).sort());
    expect(exposed).toContain('9464');
  });

  it("lets an operator's plugin module mounted anywhere import @fedgw/gateway/plugin-sdk", () => {
    // Node resolves a bare specifier through each ancestor's node_modules, up to /node_modules.
    expect(instruction('RUN')).toContain(
      'RUN mkdir -p /node_modules/@fedgw && ln -s /app/gateway /node_modules/@fedgw/gateway',
    );
    expect(instruction('COPY')).toContain('COPY --from=build /app/gateway/dist gateway/dist');
    const gateway = JSON.parse(readFileSync(`${ROOT}gateway/package.json`, 'utf8'));
    expect(gateway.exports['./plugin-sdk']).toEqual({
      types: './dist/plugin-sdk/index.d.ts',
      default: './dist/plugin-sdk/index.js',
    });
  });

  describe('HEALTHCHECK', () => {
    const [healthcheck] = instruction('HEALTHCHECK');
    const command = JSON.parse(healthcheck?.slice(healthcheck.indexOf('CMD ') + 4) ?? '[]') as string[];
    const runCheck = (port: string) =>
      spawnSync(process.execPath, command.slice(1), {
        env: { GATEWAY_LISTEN_PORT: port },
        encoding: 'utf8',
        timeout: 10_000,
      });

    let gateway: RunningGateway | undefined;
    beforeAll(async () => {
      gateway = await startGateway('fastify', {});
    });
    afterAll(async () => {
      if (gateway) expect(await gateway.stop()).toBe(0);
    });

    it('is an exec-form node command with a start period', () => {
      expect(command[0]).toBe('node');
      expect(healthcheck).toMatch(/--start-period=\d+s/);
    });

    it('passes against a gateway listening on GATEWAY_LISTEN_PORT, fails on a closed port', async () => {
      expect(runCheck(new URL((gateway as RunningGateway).origin).port).status).toBe(0);
      expect(runCheck(new URL(await closedPortUrl()).port).status).toBe(1);
    });
  });
});
