/** One request of a workload whose requests differ (body and headers), e.g. §G's catalogue. */
export interface RequestSpec {
  readonly body: string;
  /** Added to the row's headers for this request only (a signed-in user's token). */
  readonly headers: Readonly<Record<string, string>>;
}

/** A request and the `data` a correct target answers to it. */
export interface AnswerSample {
  /** Names the request in a wrong-answer message: `ProductPage product-3 as user-11`. */
  readonly label: string;
  readonly request: RequestSpec;
  readonly expected: unknown;
}

/** Which window a request sequence is for: each has its own seed, every row the same two. */
export type LoadPhase = 'warmup' | 'measure';

/**
 * Requests that vary per request (ids drawn from a distribution, some with credentials), sent
 * instead of one query with a random user. Sequences are seeded, so every row and every run
 * sends the same requests in the same order (connections still interleave them).
 */
export interface Workload {
  stream(phase: LoadPhase): () => RequestSpec;
  /** Checked in order before timing: the target must give each its reference answer. */
  samples(): readonly AnswerSample[];
}
