// The plugin SDK's public surface (`@fedgw/gateway/plugin-sdk`, ADR 055) is fixed and documented:
// the package exports exactly the names below, each from one statement of the published
// declarations under a one-line doc comment. Changing the surface means changing this list,
// docs/plugins.md and, for a new kind of export, the ADR: a helper is not added in passing.
import { join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** What loads code: helpers, constants, classes. */
const VALUES = [
  'ClientErrorCode',
  'DEFAULT_IPV6_PREFIX',
  'LogThrottle',
  'OptionIssues',
  'PluginOptionsError',
  'ProbingBreaker',
  'REQUEST_ID_HEADER',
  'RESERVED_HEADERS',
  'SUPERGRAPH_VALUES',
  'TIMED_OUT',
  'TRACE_CONTEXT_HEADERS',
  'argument',
  'asOptionsObject',
  'boolean',
  'byteSize',
  'checkKnownKeys',
  'clientKey',
  'custom',
  'defaultsOf',
  'realClock',
  'describe',
  'droppedLogLines',
  'duration',
  'emitEvent',
  'headerName',
  'httpError',
  'httpUrl',
  'intArgument',
  'integer',
  'isClientErrorCode',
  'isClientSafe',
  'isHeaderName',
  'linkedName',
  'list',
  'mapDeferredParts',
  'mapStreamEvents',
  'markShared',
  'mayDefer',
  'nonEmpty',
  'oneOf',
  'optionalValue',
  'pairs',
  'pollFile',
  'readValue',
  'responseTooLarge',
  'share',
  'shareableHeaders',
  'streamSinkOf',
  'stringList',
  'urlPath',
  'withDefault',
  'withinDeadline',
];
/** Types only: the contract's plugin types, and the types of the helpers above. */
const TYPES = [
  'AdminAnswer',
  'AdminRequest',
  'AdminRoute',
  'CircuitState',
  'CircuitStateEvent',
  'ClientKeyOf',
  'Clock',
  'ConfigIssue',
  'EntityCacheEvent',
  'EntityCacheInvalidationEvent',
  'ExecutionRequest',
  'ExecutionResult',
  'FetchedSubgraphResult',
  'FilePoller',
  'GatewayContext',
  'GatewayEvent',
  'GatewayPlugin',
  'Identity',
  'InboundDedupEvent',
  'LegacyCode',
  'Logger',
  'MetricsEndpoint',
  'MetricsScrape',
  'Parsed',
  'ProbingBreakerOptions',
  'QueryPlanCacheEvent',
  'RequestScope',
  'ResolvedRequest',
  'ResponseBudget',
  'SettingsOf',
  'StartupErrorCode',
  'SubgraphAttempt',
  'SubgraphAttemptEnd',
  'SubgraphFetchEvent',
  'SubgraphHookAnswer',
  'SubgraphRequest',
  'SubgraphResponse',
  'SubgraphResult',
  'SubgraphRetryEvent',
  'SubscriptionEvent',
  'SubscriptionEventEvent',
  'Supergraph',
  'SupergraphLoadEvent',
  'TraceSpansDroppedEvent',
  'ShadowEvent',
  'LoadShedEvent',
  'TrustedDocumentsLoadEvent',
  'ValueParser',
];

const DECLARATIONS = join(ROOT, 'gateway/dist/plugin-sdk/index.d.ts');

describe('@fedgw/gateway/plugin-sdk: the public surface', () => {
  it('loads exactly the listed values', async () => {
    const sdk = await import('@fedgw/gateway/plugin-sdk');
    expect(Object.keys(sdk).sort()).toEqual([...VALUES].sort());
  });

  it('declares exactly the listed names, one a statement, each under a one-line doc comment', () => {
    const program = ts.createProgram([DECLARATIONS], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      noEmit: true,
    });
    const source = program.getSourceFile(DECLARATIONS) as ts.SourceFile;
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(source) as ts.Symbol;
    const names = checker.getExportsOfModule(module).map((symbol) => symbol.getName());
    expect(names.sort()).toEqual([...VALUES, ...TYPES].sort());

    const undocumented = source.statements.flatMap((statement) => {
      const exported =
        ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)
          ? statement.exportClause.elements.map((element) => element.name.text)
          : [];
      const comments = ts.getLeadingCommentRanges(source.text, statement.pos) ?? [];
      const last = comments.at(-1);
      const doc = last ? source.text.slice(last.pos, last.end) : '';
      const documented = exported.length === 1 && /^\/\*\* \S.*\*\/$/.test(doc);
      return documented ? [] : [statement.getText(source)];
    });
    expect(undocumented).toEqual([]);
  });
});
