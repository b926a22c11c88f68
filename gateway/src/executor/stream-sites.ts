import {
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLBoolean,
  GraphQLInt,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  valueFromAST,
  visit,
} from 'graphql';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';

/**
 * Where an operation asks for `@stream`. Subgraphs do not speak it, so the gateway plans and
 * sends the operation without it (`stripped`), and delivers each streamed list itself
 * (stream-run.ts) from these sites: the list field's path of response names from the root.
 */
export interface StreamSite {
  readonly path: readonly string[];
  readonly initialCount: ValueNode | undefined;
  readonly if: ValueNode | undefined;
  readonly label: string | undefined;
  /** Inside a @defer fragment: the list arrives whole, with its fragment (a server may always send items early). */
  readonly deferred: boolean;
}

/** A stream the request runs: how many items the initial part carries, and the client's label. */
export interface ActiveStream {
  readonly initialCount: number;
  readonly label: string | undefined;
}

/** Response-name path (joined with `.`) → the stream asked there. */
export type ActiveStreams = ReadonlyMap<string, ActiveStream>;

interface StreamDocument {
  readonly stripped: DocumentNode;
  readonly sites: Map<string, readonly StreamSite[]>;
}

// Apollo Server caches parsed documents per query text: this work is done once per document.
const documents = new WeakMap<DocumentNode, StreamDocument | null>();

function streamDocument(document: DocumentNode): StreamDocument | null {
  let known = documents.get(document);
  if (known !== undefined) return known;
  let found = false;
  const stripped = visit(document, {
    Directive(node) {
      if (node.name.value !== 'stream') return undefined;
      found = true;
      return null;
    },
  });
  known = found ? { stripped, sites: new Map() } : null;
  documents.set(document, known);
  return known;
}

/** The document without any `@stream` (what is planned and sent to subgraphs), or itself when it has none. */
export function withoutStream(document: DocumentNode): DocumentNode {
  return streamDocument(document)?.stripped ?? document;
}

/** A request context whose document has no `@stream` (itself when it had none). */
export function withStreamStripped<R extends { readonly document: DocumentNode; readonly source?: string }>(
  requestContext: R,
): R {
  if (requestContext.source !== undefined && !requestContext.source.includes('@stream')) return requestContext;
  const document = withoutStream(requestContext.document);
  return document === requestContext.document ? requestContext : { ...requestContext, document };
}

/** The `@stream` sites of the operation the request runs (none when the document has no @stream). */
export function streamSitesOf(document: DocumentNode, operationName: string | null | undefined): readonly StreamSite[] {
  const streams = streamDocument(document);
  if (!streams) return [];
  const key = operationName ?? '';
  let sites = streams.sites.get(key);
  if (!sites) {
    sites = collectSites(document, operationName);
    streams.sites.set(key, sites);
  }
  return sites;
}

function collectSites(document: DocumentNode, operationName: string | null | undefined): StreamSite[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (
      definition.kind === Kind.OPERATION_DEFINITION &&
      (!operationName || definition.name?.value === operationName)
    )
      operation ??= definition;
  }
  const sites: StreamSite[] = [];
  const walk = (set: SelectionSetNode, path: string[], deferred: boolean, spread: ReadonlySet<string>) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const here = [...path, selection.alias?.value ?? selection.name.value];
        const stream = selection.directives?.find((directive) => directive.name.value === 'stream');
        if (stream) sites.push({ path: here, deferred, ...argumentsOf(stream) });
        if (selection.selectionSet) walk(selection.selectionSet, here, deferred, spread);
        continue;
      }
      const inDefer = deferred || !!selection.directives?.some((directive) => directive.name.value === 'defer');
      if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, path, inDefer, spread);
      else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (fragment && !spread.has(name)) walk(fragment.selectionSet, path, inDefer, new Set([...spread, name]));
      }
    }
  };
  if (operation) walk(operation.selectionSet, [], false, new Set());
  return sites;
}

function argumentsOf(directive: DirectiveNode): Pick<StreamSite, 'initialCount' | 'if' | 'label'> {
  const argument = (name: string) => directive.arguments?.find((node) => node.name.value === name)?.value;
  const label = argument('label');
  return {
    initialCount: argument('initialCount'),
    if: argument('if'),
    label: label?.kind === Kind.STRING ? label.value : undefined,
  };
}

/**
 * The streams this request runs: `if: false` turns one off, one inside @defer arrives whole with
 * its fragment. A negative `initialCount` (from a variable: a literal one fails validation) is
 * the client's error, refused before anything runs.
 */
export function activeStreams(
  sites: readonly StreamSite[],
  variables: Record<string, unknown> | undefined,
): ActiveStreams {
  const active = new Map<string, ActiveStream>();
  for (const site of sites) {
    if (site.deferred) continue;
    const on = site.if ? valueFromAST(site.if, GraphQLBoolean, variables) : true;
    if (on === false) continue;
    const count = site.initialCount ? valueFromAST(site.initialCount, GraphQLInt, variables) : 0;
    const initialCount = typeof count === 'number' ? count : 0;
    if (initialCount < 0) throw httpError(ClientErrorCode.BAD_REQUEST, NEGATIVE_INITIAL_COUNT);
    const key = site.path.join('.');
    if (!active.has(key)) active.set(key, { initialCount, label: site.label });
  }
  return active;
}

export const NEGATIVE_INITIAL_COUNT = '@stream: initialCount must be 0 or more';
