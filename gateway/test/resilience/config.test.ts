import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { GatewayConfigError } from '../../src/errors.js';
import { RESILIENCE_DEFAULTS, resilienceFor } from '../../src/resilience/per-subgraph.js';

const cwd = '/srv/gateway';

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return (error as GatewayConfigError).issues;
  }
  throw new Error('expected a GatewayConfigError');
}

describe('retry and circuit-breaker settings', () => {
  it('default to the documented production values', () => {
    const config = parseConfig({}, { cwd });
    expect(resilienceFor(config.subgraphDefaults, undefined)).toEqual({
      retry: {
        maxRetries: RESILIENCE_DEFAULTS.retries,
        backoffMs: RESILIENCE_DEFAULTS.retryBackoffMs,
        budgetRatio: RESILIENCE_DEFAULTS.retryBudget,
        budgetMinPerSecond: RESILIENCE_DEFAULTS.retryMinPerSec,
      },
      circuitBreaker: {
        failureRate: RESILIENCE_DEFAULTS.circuitFailureRate,
        minRequests: RESILIENCE_DEFAULTS.circuitMinRequests,
        cooldownMs: RESILIENCE_DEFAULTS.circuitCooldownMs,
      },
    });
  });

  it('takes per-subgraph overrides over the global values, from the environment and the file', () => {
    const config = parseConfig(
      {
        SUBGRAPH_RETRIES: '2',
        SUBGRAPH_RETRY_BUDGET: '0.2',
        SUBGRAPH_USERS_RETRIES: '0',
        SUBGRAPH_USERS_CIRCUIT_BREAKER: 'false',
        SUBGRAPH_CIRCUIT_COOLDOWN_MS: '2000',
        GATEWAY_CONFIG_FILE: 'gateway.json',
      },
      {
        cwd,
        readFile: () => JSON.stringify({ subgraphs: { reviews: { circuitMinRequests: 3, retryBackoffMs: 10 } } }),
      },
    );
    expect(config.subgraphDefaults.retryBudget).toBe(0.2);
    expect(resilienceFor(config.subgraphDefaults, config.subgraphs.users)).toEqual({
      retry: { maxRetries: 0, backoffMs: 50, budgetRatio: 0.2, budgetMinPerSecond: 10 },
    });
    expect(resilienceFor(config.subgraphDefaults, config.subgraphs.reviews)).toEqual({
      retry: { maxRetries: 2, backoffMs: 10, budgetRatio: 0.2, budgetMinPerSecond: 10 },
      circuitBreaker: { failureRate: 0.5, minRequests: 3, cooldownMs: 2000 },
    });
  });

  it('reports every bad value, naming its variable', () => {
    const issues = issuesOf(() =>
      parseConfig(
        {
          SUBGRAPH_RETRIES: '-1',
          SUBGRAPH_RETRY_BUDGET: '1.5',
          SUBGRAPH_CIRCUIT_FAILURE_RATE: '0',
          SUBGRAPH_CIRCUIT_BREAKER: 'maybe',
          SUBGRAPH_PRODUCTS_CIRCUIT_COOLDOWN_MS: 'soon',
        },
        { cwd },
      ),
    );
    expect(issues.map((issue) => issue.field).sort()).toEqual([
      'SUBGRAPH_CIRCUIT_BREAKER',
      'SUBGRAPH_CIRCUIT_FAILURE_RATE',
      'SUBGRAPH_PRODUCTS_CIRCUIT_COOLDOWN_MS',
      'SUBGRAPH_RETRIES',
      'SUBGRAPH_RETRY_BUDGET',
    ]);
    expect(issues.find((issue) => issue.field === 'SUBGRAPH_RETRY_BUDGET')?.message).toBe(
      'expected a number from 0 to 1 (e.g. 0.1), got "1.5"',
    );
  });

  it('names an unknown per-subgraph key in the file with the known ones', () => {
    const issues = issuesOf(() =>
      parseConfig(
        { GATEWAY_CONFIG_FILE: 'gateway.json' },
        { cwd, readFile: () => JSON.stringify({ subgraphs: { users: { retry: 2 } } }) },
      ),
    );
    expect(issues).toEqual([
      { field: 'gateway.json: subgraphs.users.retry', message: expect.stringContaining('retries, retryBackoffMs') },
    ]);
  });
});
