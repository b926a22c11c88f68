import { describe, expect, it } from 'vitest';
import { PubSub, SubscriberOverflowError } from '../src/pubsub.js';

describe('PubSub', () => {
  it('delivers events published after subscribing, in order, to every subscriber', async () => {
    const pubsub = new PubSub<number>();
    pubsub.publish(0);
    const a = pubsub.subscribe();
    const b = pubsub.subscribe();
    const pending = a.next();
    for (const n of [1, 2, 3]) pubsub.publish(n);
    expect(await pending).toEqual({ done: false, value: 1 });
    expect(await a.next()).toEqual({ done: false, value: 2 });
    expect(await a.next()).toEqual({ done: false, value: 3 });
    expect([(await b.next()).value, (await b.next()).value, (await b.next()).value]).toEqual([1, 2, 3]);
  });

  it('gives a subscriber only what its filter accepts', async () => {
    const pubsub = new PubSub<number>();
    const even = pubsub.subscribe((n) => n % 2 === 0);
    for (const n of [1, 2, 3, 4]) pubsub.publish(n);
    expect((await even.next()).value).toBe(2);
    expect((await even.next()).value).toBe(4);
  });

  it('return() ends the stream, releases a pending read and unsubscribes', async () => {
    const pubsub = new PubSub<number>();
    const stream = pubsub.subscribe();
    expect(pubsub.subscriberCount).toBe(1);
    const pending = stream.next();
    await stream.return();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(pubsub.subscriberCount).toBe(0);
    pubsub.publish(1);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('works with for await, which calls return() on break', async () => {
    const pubsub = new PubSub<string>();
    const stream = pubsub.subscribe();
    pubsub.publish('a');
    pubsub.publish('b');
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['a', 'b']);
    expect(pubsub.subscriberCount).toBe(0);
  });

  it('drops a subscriber whose queue passes maxQueued: its next read throws, others go on', async () => {
    const pubsub = new PubSub<number>({ maxQueued: 3 });
    const stalled = pubsub.subscribe();
    const reading = pubsub.subscribe();
    for (const n of [1, 2, 3]) {
      pubsub.publish(n);
      expect((await reading.next()).value).toBe(n);
    }
    expect(pubsub.subscriberCount).toBe(2);
    pubsub.publish(4);
    // The fourth unread event is one too many: the queued three are freed, not delivered.
    expect(pubsub.subscriberCount).toBe(1);
    const error = await stalled.next().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SubscriberOverflowError);
    expect((error as SubscriberOverflowError).code).toBe('SUBSCRIBER_TOO_SLOW');
    expect(await stalled.next()).toEqual({ done: true, value: undefined });
    expect((await reading.next()).value).toBe(4);
  });

  it('holds at most maxQueued events for a subscriber that never reads (default 1,000)', async () => {
    const pubsub = new PubSub<number>();
    const stalled = pubsub.subscribe();
    for (let n = 1; n <= 1_000; n++) pubsub.publish(n);
    expect(pubsub.subscriberCount).toBe(1);
    pubsub.publish(1_001);
    expect(pubsub.subscriberCount).toBe(0);
    await expect(stalled.next()).rejects.toThrow('more than 1000 events');
  });

  it('rejects a bad maxQueued, naming it', () => {
    expect(() => new PubSub({ maxQueued: 0 })).toThrow(/maxQueued/);
    expect(() => new PubSub({ maxQueued: 1.5 })).toThrow(/maxQueued/);
  });
});
