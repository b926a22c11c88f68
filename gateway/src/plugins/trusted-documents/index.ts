import { readFileSync } from 'node:fs';
import type { GraphQLRequest, GraphQLRequestListener } from '@apollo/server';
import type { GraphQLError } from 'graphql';
import type { GatewayContext, GatewayEvent, GatewayPlugin } from '../../plugin-sdk/index.js';
import {
  asOptionsObject,
  ClientErrorCode,
  type Clock,
  checkKnownKeys,
  defaultsOf,
  type FilePoller,
  httpError,
  type Logger,
  OptionIssues,
  oneOf,
  optionalValue,
  PluginOptionsError,
  pollFile,
  SUPERGRAPH_VALUES,
  withDefault,
} from '../../plugin-sdk/index.js';
import { refuseBeforeParsing } from '../shared/refuse-before-parsing.js';
import { documentIdOf } from './document-id.js';
import { parseManifest, type TrustedManifest } from './manifest.js';

export { type ManifestFormat, type ManifestResult, parseManifest, type TrustedManifest } from './manifest.js';

/**
 * `allow-ids`: a client may send a manifest id instead of the document; any full document
 * still runs. `enforce`: only manifest operations run, by id or by full document.
 */
export const TRUSTED_DOCUMENTS_MODES = ['allow-ids', 'enforce'] as const;
export type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENTS_MODES)[number];

export interface TrustedDocumentsOptions {
  /** The manifest file: Apollo's persisted query manifest, or a Relay / Codegen `{ id: document }` map. */
  manifestPath: string;
  /** Default: `enforce` (a manifest is given to lock the graph down; allow-ids is the rollout step). */
  mode?: TrustedDocumentsMode;
  /** How often the file is checked for a new manifest; 0 turns hot reload off. Default: 10,000 ms */
  pollIntervalMs?: number;
  /** Reload outcomes are logged here (counts and entry names, never document text). */
  logger?: Logger;
  /** Hands `trusted-documents-load` events to the gateway's observers (createGateway wires it). */
  emit?: (event: GatewayEvent) => void;
  /** What schedules the manifest's polls. Default: the real clock. Tests pass their own to move time. */
  clock?: Clock;
}

/** The options' schemas and defaults (the poll interval is the supergraph's, SUPERGRAPH_POLL_INTERVAL_MS). */
export const TRUSTED_DOCUMENTS_VALUES = Object.freeze({
  mode: withDefault(oneOf(TRUSTED_DOCUMENTS_MODES), 'enforce'),
  pollIntervalMs: SUPERGRAPH_VALUES.pollIntervalMs,
});
export const TRUSTED_DOCUMENTS_DEFAULTS = defaultsOf(TRUSTED_DOCUMENTS_VALUES);

/**
 * Trusted documents (persisted query manifest / safelist). Runs in `requestDidStart`,
 * before Apollo Server reads `request.query`: an id becomes the manifest's document
 * there, and a refused request is answered 400 from `didResolveOperation` (the first hook
 * whose errors get an HTTP status), before operation limits and planning. A request costs
 * a Map get; only a full document that is not byte-for-byte in the manifest (enforce mode)
 * is lexed once more to compare it token by token.
 */
export function trustedDocuments(options: TrustedDocumentsOptions): GatewayPlugin {
  const pollIntervalMs = checkOptions(options);
  const { manifestPath, logger, emit } = options;
  const mode = options.mode ?? TRUSTED_DOCUMENTS_DEFAULTS.mode;
  // Read once at construction: a bad manifest fails startup, naming every bad entry.
  const initialText = readManifest(manifestPath);
  // Swapped whole on reload; a request reads it once, so it never sees half of two manifests.
  const state: ManifestState = { current: initialManifest(manifestPath, initialText) };
  const report = (event: GatewayEvent) => emit?.(event);
  return {
    name: 'trusted-documents',
    apollo: {
      async serverWillStart() {
        report({ type: 'trusted-documents-load', outcome: 'applied', documents: state.current.size });
        logger?.info(
          {
            plugin: 'trusted-documents',
            manifest: manifestPath,
            documents: state.current.size,
            format: state.current.format,
            mode,
          },
          'trusted documents manifest loaded',
        );
        if (pollIntervalMs === 0 || state.poller) return;
        state.poller = pollManifest(state, options, pollIntervalMs, initialText, report);
      },
      async requestDidStart({ request, contextValue }): Promise<GraphQLRequestListener<GatewayContext> | undefined> {
        // No await before this: it must finish before Apollo Server reads the request.
        const refusal = checkRequest(state.current, mode, request);
        if ('trusted' in refusal) {
          if (refusal.trusted) contextValue.scope.trustedDocument = true;
          return undefined;
        }
        // Never parsed or validated: a caller the manifest keeps out learns nothing of the schema.
        return refuseBeforeParsing(request, contextValue.scope, refusal);
      },
    },
    async close() {
      state.poller?.close();
      state.poller = undefined;
    },
  };
}

/** The manifest in use, the poller that reloads it, and the last read error logged. */
interface ManifestState {
  current: TrustedManifest;
  poller?: FilePoller;
  lastReadError?: string;
}

/** The options checked, every problem named at once; the poll interval they give. */
function checkOptions(options: TrustedDocumentsOptions): number {
  const issues = new OptionIssues();
  const raw = asOptionsObject('trusted-documents', options);
  checkKnownKeys(issues, raw, ['manifestPath', 'mode', 'pollIntervalMs', 'logger', 'emit', 'clock']);
  if (typeof raw.manifestPath !== 'string' || raw.manifestPath.trim() === '') {
    issues.add('manifestPath', 'must be a non-empty string (the manifest file)');
  }
  issues.check('mode', raw.mode, TRUSTED_DOCUMENTS_VALUES.mode);
  const pollIntervalMs = optionalValue(
    issues,
    raw,
    'pollIntervalMs',
    TRUSTED_DOCUMENTS_VALUES.pollIntervalMs,
    TRUSTED_DOCUMENTS_DEFAULTS.pollIntervalMs,
  );
  if (raw.emit !== undefined && typeof raw.emit !== 'function') issues.add('emit', 'must be a function');
  issues.throwIfAny('trusted-documents');
  return pollIntervalMs;
}

/** The manifest read at construction; a bad one fails startup, naming every bad entry. */
function initialManifest(manifestPath: string, initialText: string): TrustedManifest {
  const initial = parseManifest(initialText);
  if (!initial.ok) {
    throw new PluginOptionsError(
      'trusted-documents',
      initial.issues.map((issue) => ({
        field: `manifestPath (${manifestPath}): ${issue.field}`,
        message: issue.message,
      })),
    );
  }
  return initial.manifest;
}

/** Hot reload: the file polled, each change applied (or rejected), read errors logged once until they change. */
function pollManifest(
  state: ManifestState,
  options: TrustedDocumentsOptions,
  pollIntervalMs: number,
  initialText: string,
  report: (event: GatewayEvent) => void,
): FilePoller {
  const { manifestPath, logger } = options;
  return pollFile({
    path: manifestPath,
    intervalMs: pollIntervalMs,
    initialText,
    ...(options.clock ? { clock: options.clock } : {}),
    onChange: (text) => {
      state.lastReadError = undefined;
      applyManifest(state, text, options, report);
    },
    onError: (error) => {
      // A vanished file (mid-rewrite, ConfigMap swap) keeps the manifest; logged once until it changes.
      const code = String((error as NodeJS.ErrnoException)?.code ?? (error as Error)?.message);
      if (code === state.lastReadError) return;
      state.lastReadError = code;
      logger?.warn(
        { plugin: 'trusted-documents', manifest: manifestPath, code },
        'cannot read the trusted documents manifest; the previous one stays in use',
      );
    },
  });
}

/** A changed manifest: swapped in whole when valid, else rejected with the previous one kept. */
function applyManifest(
  state: ManifestState,
  text: string,
  { manifestPath, logger }: TrustedDocumentsOptions,
  report: (event: GatewayEvent) => void,
): void {
  const result = parseManifest(text);
  if (!result.ok) {
    const reason = summary(result.issues);
    logger?.warn(
      { plugin: 'trusted-documents', manifest: manifestPath, issues: result.issues, documents: state.current.size },
      'trusted documents manifest rejected; the previous one stays in use',
    );
    report({ type: 'trusted-documents-load', outcome: 'rejected', documents: state.current.size, reason });
    return;
  }
  state.current = result.manifest;
  logger?.info(
    {
      plugin: 'trusted-documents',
      manifest: manifestPath,
      documents: state.current.size,
      format: state.current.format,
    },
    'trusted documents manifest reloaded',
  );
  report({ type: 'trusted-documents-load', outcome: 'applied', documents: state.current.size });
}

/** `trusted`: the document that will run is the manifest's. */
function checkRequest(
  manifest: TrustedManifest,
  mode: TrustedDocumentsMode,
  request: GraphQLRequest,
): GraphQLError | { trusted: boolean } {
  const query = request.query;
  if (typeof query === 'string' && query !== '') {
    // The document that runs is the one checked, whatever id rides along with it.
    if (mode === 'allow-ids') return { trusted: false };
    if (manifest.contains(query)) return { trusted: true };
    return httpError(ClientErrorCode.QUERY_NOT_IN_SAFELIST, 'The operation is not in the trusted documents list.');
  }
  const id = documentIdOf(request);
  if (id.kind === 'none') return { trusted: false }; // Apollo Server answers 400: no query
  if (id.kind === 'bad') return httpError(ClientErrorCode.BAD_REQUEST, id.message);
  const document = manifest.documentFor(id.id);
  if (document === undefined) {
    return httpError(
      ClientErrorCode.PERSISTED_QUERY_NOT_IN_LIST,
      'The document id is not in the trusted documents list.',
    );
  }
  request.query = document;
  // Resolved here: Apollo's APQ handling must not look the id up again (or compare it to the text).
  request.extensions = withoutPersistedQuery(request.extensions);
  return { trusted: true };
}

function readManifest(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PluginOptionsError('trusted-documents', [
      { field: `manifestPath (${path})`, message: `cannot be read (${code})` },
    ]);
  }
}

function withoutPersistedQuery(extensions: GraphQLRequest['extensions']): GraphQLRequest['extensions'] {
  if (!extensions || !('persistedQuery' in extensions)) return extensions;
  const { persistedQuery: _, ...rest } = extensions;
  return rest;
}

/** The first problem and how many more, for the event (the log line has them all). */
function summary(issues: readonly { field: string; message: string }[]): string {
  const [first] = issues;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return first ? `${first.field}: ${first.message}${more}` : 'invalid';
}
