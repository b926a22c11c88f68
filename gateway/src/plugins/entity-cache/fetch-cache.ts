import { trace } from '@opentelemetry/api';
import type { GraphQLFormattedError } from 'graphql';
import type {
  EntityCacheEvent,
  FetchedSubgraphResult,
  GatewayContext,
  SubgraphRequest,
  SubgraphResult,
} from '../../plugin-sdk/index.js';
import { withinDeadline } from '../../plugin-sdk/index.js';
import { type CachePolicy, cachePolicy } from './cache-control.js';
import type { ClientWriteBudget } from './client-budget.js';
import { invalidationsIn } from './invalidation.js';
import type { KeyFields } from './key-fields.js';
import { cacheKey, entityDigest, identityDigest, selectionDigest, variesOn, varyDigest } from './keys.js';
import type { CheckedOptions } from './options.js';
import type { EntityStore, InvalidationTarget, StoreEntry } from './store.js';

type Json = Record<string, unknown>;
/** A kept answer found for a lookup: parsed afresh, and the bytes it counts against MAX_RESPONSE_BYTES. */
interface Held {
  readonly entity: Json;
  readonly bytes: number;
}
type Outcome = EntityCacheEvent['outcome'];

/** Operations whose answers may be kept: queries, never mutations. */
const QUERY = /^\s*(?:query\b|\{)/;
/** Public selections learned to vary on an identity header, per subgraph: bounded, emptied when full (they are relearned). */
const MAX_LEARNED_SELECTIONS = 10_000;
/** How long a mutation's answer waits for the invalidations it asked for. */
const INVALIDATION_WAIT_MS = 1_000;

/** What every fetch through the cache shares with the plugin. */
export interface Shared {
  readonly schema: () => string | undefined;
  readonly keyFields: () => KeyFields;
  /** Public selections whose answers said `Vary` on an identity header: looked up with those headers in the key. */
  readonly identityVaryingSelections: Set<string>;
  readonly events: (event: Omit<EntityCacheEvent, 'type'>) => void;
  readonly invalidate: (target: InvalidationTarget) => Promise<number>;
  /** What each client may still add to the store in this window. */
  readonly budget: ClientWriteBudget;
  readonly clientKey: (context: GatewayContext) => string;
}

type Fetch = (variables?: Readonly<Record<string, unknown>>) => Promise<FetchedSubgraphResult>;

interface Keeping {
  readonly policy: CachePolicy;
  /** Its `Vary` names an identity header: the header's value stays in the key. */
  readonly varies: boolean;
  readonly vary: string;
}

/** One fetch through the cache: look up, ask for what is missing, merge in order, keep what may be kept. */
export class FetchCache {
  constructor(
    private readonly store: EntityStore,
    private readonly options: CheckedOptions,
    private readonly shared: Shared,
  ) {}

  async around(request: SubgraphRequest, fetch: Fetch): Promise<SubgraphResult> {
    const schema = this.shared.schema();
    const variables = request.variables ?? {};
    if (schema === undefined || !QUERY.test(request.query)) {
      // Not kept (a mutation): its answer may still say what to invalidate.
      return this.#invalidateFrom(request, await fetch());
    }
    const { representations, ...others } = variables as Json;
    if (Array.isArray(representations) && request.query.includes('_entities')) {
      return this.#entities(request, fetch, schema, representations, others);
    }
    return this.#root(request, fetch, schema, variables as Json);
  }

  async #entities(
    request: SubgraphRequest,
    fetch: Fetch,
    schema: string,
    representations: unknown[],
    others: Json,
  ): Promise<SubgraphResult> {
    const { subgraph, context } = request;
    const selection = selectionDigest(request.query, others);
    const identity = identityDigest(context);
    const typeOf = (index: number) => (representations[index] as Json).__typename as string;
    const keys = representations.map((representation) => {
      if (!isRepresentation(representation)) return undefined;
      const entity = entityDigest(this.shared.keyFields().keyOf(subgraph, representation.__typename, representation));
      return this.#lookupKeys(request, schema, representation.__typename, entity, selection, identity);
    });
    const held = await this.#lookup(keys);
    if (held === undefined) {
      this.#report(request, representations.length, typeOf, 'bypass');
      return this.#invalidateFrom(request, await fetch());
    }
    const missing = held.flatMap((found, index) => (found ? [] : [index]));
    const hits = representations.length - missing.length;
    setSpanOutcome(missing.length === 0 ? 'hit' : hits === 0 ? 'miss' : 'partial');
    if (hits > 0) {
      const bytes = held.reduce((sum, found) => sum + (found?.bytes ?? 0), 0);
      // Kept answers count against MAX_RESPONSE_BYTES as fetched ones do; over it, the fetch says so.
      if (!context.responseBudget.take(bytes)) return (await fetch()).result;
    }
    this.#report(request, held.length, typeOf, 'hit', (index) => held[index] !== undefined);
    this.#report(request, held.length, typeOf, 'miss', (index) => held[index] === undefined);
    const entities = held.map((found) => found?.entity);
    if (missing.length === 0) return { data: { _entities: entities } };
    const partial = hits > 0 ? { held: entities, missing } : undefined;
    return this.#keep(request, fetch, schema, representations, others, selection, identity, partial);
  }

  /**
   * The keys to look an answer up under, most specific first: the caller's private entry (when
   * signed in), then the public one. Whether an answer is private is the subgraph's to say for
   * each answer: a lookup tries both rather than remember a selection's last answer (ADR 037).
   */
  #lookupKeys(
    request: SubgraphRequest,
    schema: string,
    type: string,
    entity: string,
    selection: string,
    identity: string | undefined,
  ): string[] {
    const { subgraph } = request;
    const vary = this.#lookupVary(request, selection);
    const shared = cacheKey({ schema, subgraph, type, entity, selection, vary, identity: undefined });
    if (identity === undefined) return [shared];
    const own = cacheKey({ schema, subgraph, type, entity, selection, vary: varyDigest(request.headers), identity });
    return [own, shared];
  }

  /** One store round trip for every key of every entity; per entity, the first kept answer (or none); undefined: a bypass. */
  async #lookup(keys: readonly (readonly string[] | undefined)[]): Promise<(Held | undefined)[] | undefined> {
    const values = await this.store.get(keys.flatMap((each) => each ?? []));
    if (values === undefined) return undefined;
    let at = 0;
    return keys.map((each) => {
      let found: Held | undefined;
      for (const _ of each ?? []) {
        const value = values[at++];
        const entity = found ? undefined : entityFrom(value);
        if (entity) found = { entity, bytes: Buffer.byteLength(value ?? '') };
      }
      return found;
    });
  }

  /** Asks for the missing entities (all when `partial` is undefined), keeps what may be kept, merges in order. */
  async #keep(
    request: SubgraphRequest,
    fetch: Fetch,
    schema: string,
    representations: unknown[],
    others: Json,
    selection: string,
    identity: string | undefined,
    partial: { held: (Json | undefined)[]; missing: number[] } | undefined,
  ): Promise<SubgraphResult> {
    const missing = partial?.missing ?? representations.map((_, index) => index);
    const asked = missing.map((index) => representations[index]);
    const fetched = await fetch(partial ? { ...others, representations: asked } : undefined);
    await this.#invalidateFrom(request, fetched);
    const { result } = fetched;
    const answers = result.data?._entities;
    const wellFormed = Array.isArray(answers) && answers.length === asked.length;
    if (fetched.fromSubgraph && wellFormed) {
      const failed = failedPositions(result.errors);
      if (failed !== 'all') {
        const keeping = this.#keeping(request, fetched);
        const entries = answers.flatMap((answer, index): StoreEntry[] => {
          const representation = asked[index];
          if (failed.has(index) || !isRepresentation(representation) || !isObject(answer)) return [];
          const type = representation.__typename;
          const entity = entityDigest(this.shared.keyFields().keyOf(request.subgraph, type, representation));
          return this.#entry(request, keeping, schema, type, entity, selection, identity, answer);
        });
        this.#store(request, entries);
      }
    }
    if (!partial) return result;
    // The kept entities stay whatever became of the fetch for the others; its errors go to the
    // places it asked for (one that names no entity, to each of them), as without the cache.
    const merged = partial.held.slice() as unknown[];
    missing.forEach((position, index) => {
      merged[position] = wellFormed ? answers[index] : null;
    });
    const errors = result.errors?.flatMap((error) => placeError(error, missing));
    const data = isObject(result.data) ? result.data : {};
    return { ...result, data: { ...data, _entities: merged }, ...(errors && { errors }) };
  }

  async #root(request: SubgraphRequest, fetch: Fetch, schema: string, variables: Json): Promise<SubgraphResult> {
    const { subgraph, context } = request;
    const selection = selectionDigest(request.query, variables);
    const identity = identityDigest(context);
    const event = (outcome: Outcome) => {
      if (outcome === 'hit' || outcome === 'miss') tally(context, outcome, [1]);
      this.shared.events({ subgraph, entityType: 'Query', outcome, count: 1, requestId: context.requestId });
    };
    const held = await this.#lookup([this.#lookupKeys(request, schema, 'Query', 'root', selection, identity)]);
    if (held === undefined) {
      event('bypass');
      return this.#invalidateFrom(request, await fetch());
    }
    const [found] = held;
    setSpanOutcome(found ? 'hit' : 'miss');
    if (found && context.responseBudget.take(found.bytes)) {
      event('hit');
      return { data: found.entity };
    }
    event('miss');
    const fetched = await fetch();
    await this.#invalidateFrom(request, fetched);
    const { result } = fetched;
    if (fetched.fromSubgraph && !result.errors?.length && isObject(result.data)) {
      const keeping = this.#keeping(request, fetched);
      this.#store(request, this.#entry(request, keeping, schema, 'Query', 'root', selection, identity, result.data));
    }
    return result;
  }

  /**
   * Writes what the client's write budget allows, in order; the rest is served but not kept
   * (`throttled`), so one client cannot push out the entries everyone else reads.
   */
  #store(request: SubgraphRequest, entries: readonly StoreEntry[]): void {
    if (entries.length === 0) return;
    const client = this.shared.clientKey(request.context);
    // Bytes, as the budget is given in (a `€` is three): characters let a client write three times its budget.
    const kept = entries.filter((entry) =>
      this.shared.budget.take(client, Buffer.byteLength(entry.key) + Buffer.byteLength(entry.value)),
    );
    if (kept.length > 0) this.store.set(kept);
    const throttled = new Map<string, number>();
    for (const entry of entries)
      if (!kept.includes(entry)) throttled.set(entry.type, (throttled.get(entry.type) ?? 0) + 1);
    for (const [entityType, count] of throttled) {
      this.shared.events({
        subgraph: request.subgraph,
        entityType,
        outcome: 'throttled',
        count,
        requestId: request.context.requestId,
      });
    }
  }

  /** What one fetch's answer allows, read once for all its entities: its `Cache-Control`, its `Vary`, the key's headers. */
  #keeping(request: SubgraphRequest, fetched: FetchedSubgraphResult): Keeping {
    const policy = cachePolicy(fetched.headers['cache-control']);
    // A trusted subgraph's public answer is the same for every signed-in caller, unless it says it varies on identity.
    const varies = !policy.private && variesOn(fetched.headers.vary, this.options.identityHeaders);
    const vary = varyDigest(request.headers, this.#valueless(request.subgraph, policy.private || varies));
    return { policy, varies, vary };
  }

  /** The entry to keep for one answer, or none: no-store, no TTL, private for an anonymous caller, too large. */
  #entry(
    request: SubgraphRequest,
    { policy, varies, vary }: Keeping,
    schema: string,
    type: string,
    entity: string,
    selection: string,
    identity: string | undefined,
    answer: Json,
  ): StoreEntry[] {
    if (policy.noStore) return [];
    const ttlSec = policy.maxAgeSec;
    const ttlMs = Math.min(
      this.options.maxTtlMs,
      ttlSec === undefined ? (this.#defaultTtl(request.subgraph, type) ?? 0) : ttlSec * 1000,
    );
    if (ttlMs <= 0) return [];
    if (policy.private && identity === undefined) return [];
    if (varies) this.#learn(this.shared.identityVaryingSelections, `${request.subgraph}:${selection}`);
    const value = JSON.stringify(answer);
    if (Buffer.byteLength(value) > this.options.maxEntryBytes) return [];
    const owner = policy.private ? identity : undefined;
    return [
      {
        key: cacheKey({ schema, subgraph: request.subgraph, type, entity, selection, vary, identity: owner }),
        value,
        ttlMs,
        space: owner === undefined ? `public:${request.subgraph}:${type}` : `private:${owner}`,
        subgraph: request.subgraph,
        type,
      },
    ];
  }

  #defaultTtl(subgraph: string, type: string): number | undefined {
    return this.options.typeTtlMs.get(type) ?? this.options.subgraphTtlMs.get(subgraph) ?? this.options.defaultTtlMs;
  }

  /** The vary digest to look a public answer up with: identity headers by name only for a trusted subgraph's selection. */
  #lookupVary(request: SubgraphRequest, selection: string): string {
    const whole = this.shared.identityVaryingSelections.has(`${request.subgraph}:${selection}`);
    return varyDigest(request.headers, this.#valueless(request.subgraph, whole));
  }

  /** The headers counted by name only: identity headers, for a public answer of a subgraph trusted to mean it. */
  #valueless(subgraph: string, whole: boolean): ReadonlySet<string> | undefined {
    return whole || !this.options.sharedPublicSubgraphs.has(subgraph) ? undefined : this.options.identityHeaders;
  }

  #learn(selections: Set<string>, selection: string): void {
    if (selections.size >= MAX_LEARNED_SELECTIONS) selections.clear();
    selections.add(selection);
  }

  /**
   * Applies the `invalidation` extension of a subgraph's answer (its own entries only) before the
   * answer goes on, so the client that changed something reads it back fresh from any replica;
   * a store slower than INVALIDATION_WAIT_MS finishes in the background.
   */
  async #invalidateFrom(request: SubgraphRequest, fetched: FetchedSubgraphResult): Promise<SubgraphResult> {
    if (!fetched.fromSubgraph) return fetched.result;
    const targets = invalidationsIn(fetched.result.extensions, request.subgraph);
    if (targets.length === 0) return fetched.result;
    await withinDeadline(Promise.all(targets.map((target) => this.shared.invalidate(target))), INVALIDATION_WAIT_MS);
    return fetched.result;
  }

  #report(
    request: SubgraphRequest,
    count: number,
    typeOf: (index: number) => string,
    outcome: Outcome,
    counted: (index: number) => boolean = () => true,
  ): void {
    const perType = new Map<string, number>();
    for (let index = 0; index < count; index++) {
      if (!counted(index)) continue;
      const type = typeOf(index);
      const name = typeof type === 'string' ? type : '?';
      perType.set(name, (perType.get(name) ?? 0) + 1);
    }
    if (outcome === 'hit' || outcome === 'miss') tally(request.context, outcome, [...perType.values()]);
    for (const [entityType, n] of perType) {
      this.shared.events({
        subgraph: request.subgraph,
        entityType,
        outcome,
        count: n,
        requestId: (request.context as GatewayContext).requestId,
      });
    }
  }
}

/** Counts on the request's scope, for its log line's hit ratio (request-log, at debug). */
function tally(context: GatewayContext, outcome: 'hit' | 'miss', counts: readonly number[]): void {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return;
  context.scope.entityCache ??= { hits: 0, misses: 0 };
  const counted = context.scope.entityCache;
  if (outcome === 'hit') counted.hits += total;
  else counted.misses += total;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRepresentation(value: unknown): value is Json & { __typename: string } {
  return isObject(value) && typeof value.__typename === 'string';
}

/** A kept answer, parsed afresh for this request (the executor edits what it is given); garbage is a miss. */
function entityFrom(value: string | undefined): Json | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The `_entities` positions the errors point at, or `all` when one error points at none (nothing is kept). */
function failedPositions(errors: readonly GraphQLFormattedError[] | undefined): Set<number> | 'all' {
  const failed = new Set<number>();
  for (const error of errors ?? []) {
    const [root, index] = error.path ?? [];
    if (root !== '_entities' || typeof index !== 'number') return 'all';
    failed.add(index);
  }
  return failed;
}

/**
 * An error of the narrowed fetch at the entity's place in the whole fetch: its `_entities`
 * index put back; one that names no entity (the fetch failed as a whole) at each entity it asked
 * for, since the kept ones did not fail.
 */
function placeError(error: GraphQLFormattedError, missing: readonly number[]): GraphQLFormattedError[] {
  const [root, index, ...rest] = error.path ?? [];
  if (root === '_entities' && typeof index === 'number') {
    return [{ ...error, path: ['_entities', missing[index] ?? index, ...rest] }];
  }
  return missing.map((position) => ({ ...error, path: ['_entities', position] }));
}

/** `entity_cache` on the active span (the fetch's): hit, partial or miss. */
function setSpanOutcome(outcome: 'hit' | 'partial' | 'miss'): void {
  trace.getActiveSpan()?.setAttribute('entity_cache', outcome);
}
