import { firstDifference } from './diff.js';
import { postJson } from './http-post.js';
import { mergeIncremental, multipartBoundary, multipartPayloads } from './incremental-answer.js';
import { type BenchQuery, requestBody } from './queries.js';
import type { Workload } from './workload.js';

export interface AnswerCheckOptions {
  readonly url: string;
  readonly queries: readonly BenchQuery[];
  /** Users asked about, for per-user queries (see sampleUserIds). */
  readonly userIds: readonly string[];
  /** Sent with every request, like the load (tokens, API keys). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Response headers the variant must produce (e.g. x-trace-1..10); presence only. */
  readonly expectHeaders?: readonly string[];
}

export type AnswerCheck =
  | { readonly ok: true; readonly checked: number }
  | { readonly ok: false; readonly message: string };

/**
 * Asks the target every query for every sampled user and compares with the reference answer
 * (computed from @fedgw/subgraphs' data). Stops at the first wrong answer and names it, so a
 * fast but wrong target never gets a throughput number.
 */
export async function checkAnswers(options: AnswerCheckOptions): Promise<AnswerCheck> {
  let checked = 0;
  for (const query of options.queries) {
    const ids = query.perUser ? options.userIds : ['-'];
    for (const userId of ids) {
      const label = query.perUser ? `${query.name} for ${userId}` : query.name;
      const problem = await checkOne(options, query, userId);
      if (problem) return { ok: false, message: `${label}: ${problem}` };
      checked++;
    }
  }
  return { ok: true, checked };
}

async function checkOne(options: AnswerCheckOptions, query: BenchQuery, userId: string): Promise<string | null> {
  let response: Awaited<ReturnType<typeof postJson>>;
  try {
    const accept: Record<string, string> = query.incrementalAccept ? { accept: query.incrementalAccept } : {};
    response = await postJson(options.url, requestBody(query, userId), { ...options.headers, ...accept });
  } catch (error) {
    return `request failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  const excerpt = response.text.length > 200 ? `${response.text.slice(0, 197)}...` : response.text;
  if (response.status !== 200) return `HTTP ${response.status}: ${excerpt}`;
  let body: unknown;
  try {
    body = query.incrementalAccept ? mergedAnswer(response) : JSON.parse(response.text);
  } catch (error) {
    return `${error instanceof Error ? error.message : 'not JSON'}: ${excerpt}`;
  }
  const difference = firstDifference(body, { data: query.expected(userId) });
  if (difference) return difference;
  for (const name of options.expectHeaders ?? []) {
    if (response.headers[name] === undefined) return `response header ${name} is missing`;
  }
  return null;
}

/**
 * A workload's samples (§G: varied products, anonymous and signed-in), in order, each against
 * its own reference answer; stops at the first wrong one and names it.
 */
export async function checkWorkloadAnswers(
  url: string,
  workload: Workload,
  headers: Readonly<Record<string, string>> = {},
): Promise<AnswerCheck> {
  let checked = 0;
  for (const sample of workload.samples()) {
    let response: Awaited<ReturnType<typeof postJson>>;
    try {
      response = await postJson(url, sample.request.body, { ...headers, ...sample.request.headers });
    } catch (error) {
      return {
        ok: false,
        message: `${sample.label}: request failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const excerpt = response.text.length > 200 ? `${response.text.slice(0, 197)}...` : response.text;
    if (response.status !== 200) return { ok: false, message: `${sample.label}: HTTP ${response.status}: ${excerpt}` };
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return { ok: false, message: `${sample.label}: not JSON: ${excerpt}` };
    }
    const difference = firstDifference(body, { data: sample.expected });
    if (difference) return { ok: false, message: `${sample.label}: ${difference}` };
    checked++;
  }
  return { ok: true, checked };
}

/** An incremental answer's parts merged as a client merges them; throws when it is not multipart or never ends. */
function mergedAnswer(response: Awaited<ReturnType<typeof postJson>>): unknown {
  const boundary = multipartBoundary(response.headers['content-type']);
  if (!boundary) throw new Error(`not multipart (content-type ${String(response.headers['content-type'])})`);
  const merged = mergeIncremental(multipartPayloads(response.text, boundary));
  if (!merged.complete) throw new Error('no last part (hasNext: false)');
  return merged.errors.length > 0 ? { data: merged.data, errors: merged.errors } : { data: merged.data };
}
