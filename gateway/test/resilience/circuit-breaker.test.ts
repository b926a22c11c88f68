import { describe, expect, it } from 'vitest';
import type { CircuitState } from '../../src/contract/index.js';
import { CircuitBreaker, type CircuitBreakerOptions } from '../../src/resilience/circuit-breaker.js';

/** A breaker on a clock the test moves, recording every state it enters. */
function breaker(options: Partial<CircuitBreakerOptions> = {}) {
  let now = 0;
  const states: CircuitState[] = [];
  const circuit = new CircuitBreaker(
    { failureRate: 0.5, minRequests: 4, cooldownMs: 1000, ...options },
    { now: () => now, onStateChange: (state) => states.push(state) },
  );
  /** One request through the breaker; false when it was refused. */
  const send = (failed: boolean): boolean => {
    const permit = circuit.acquire();
    if (!permit) return false;
    circuit.record(permit, failed);
    return true;
  };
  return { circuit, states, send, advance: (ms: number) => (now += ms) };
}

describe('CircuitBreaker', () => {
  it('stays closed below the minimum volume, however many of those failed', () => {
    const { circuit, send } = breaker();
    for (let i = 0; i < 3; i++) expect(send(true)).toBe(true);
    expect(circuit.state).toBe('closed');
  });

  it('opens at the failure rate once the volume is there, and refuses requests while open', () => {
    const { circuit, send, states } = breaker();
    send(false);
    send(false);
    send(true);
    expect(circuit.state).toBe('closed'); // 1 of 3
    send(true); // 2 of 4 = 0.5
    expect(circuit.state).toBe('open');
    expect(send(false)).toBe(false);
    expect(states).toEqual(['open']);
  });

  it('half-opens after the cool-down with exactly one probe; its success closes the circuit', () => {
    const { circuit, send, states, advance } = breaker();
    for (let i = 0; i < 4; i++) send(true);
    advance(999);
    expect(circuit.acquire()).toBeUndefined();
    advance(1);
    const probe = circuit.acquire();
    expect(probe?.probe).toBe(true);
    expect(circuit.acquire()).toBeUndefined(); // one probe at a time
    circuit.record(probe as NonNullable<typeof probe>, false);
    expect(circuit.state).toBe('closed');
    expect(send(true)).toBe(true); // counts start afresh: one failure does not reopen it
    expect(circuit.state).toBe('closed');
    expect(states).toEqual(['open', 'half-open', 'closed']);
  });

  it('reopens for another cool-down when the probe fails', () => {
    const { circuit, send, states, advance } = breaker();
    for (let i = 0; i < 4; i++) send(true);
    advance(1000);
    expect(send(true)).toBe(true);
    expect(circuit.state).toBe('open');
    advance(500);
    expect(send(false)).toBe(false);
    advance(500);
    expect(send(false)).toBe(true);
    expect(states).toEqual(['open', 'half-open', 'open', 'half-open', 'closed']);
  });

  it('ignores outcomes of requests let through before the state changed', () => {
    const { circuit, send } = breaker();
    const late = circuit.acquire();
    for (let i = 0; i < 4; i++) send(true);
    circuit.record(late as NonNullable<typeof late>, false);
    expect(circuit.state).toBe('open');
  });

  it('forgets failures older than its 10 s window', () => {
    const { circuit, send, advance } = breaker();
    send(true);
    send(true);
    send(true);
    advance(11_000);
    send(true);
    expect(circuit.state).toBe('closed');
  });

  it('names a bad option', () => {
    expect(() => new CircuitBreaker({ failureRate: 0, minRequests: 4, cooldownMs: 1000 })).toThrow(
      /circuitBreaker\.failureRate/,
    );
    expect(() => new CircuitBreaker({ failureRate: 0.5, minRequests: 0, cooldownMs: 1000 })).toThrow(
      /circuitBreaker\.minRequests/,
    );
  });
});
