// An operator's plugin, written outside the gateway's repository: it imports the gateway only
// through its plugin SDK (`@fedgw/gateway/plugin-sdk`), as the built-in plugins do, and is
// loaded by the shipped entry point from the config file (docs/plugins.md).
//
// It admits callers of known tenants only: the tenant comes from a header, an unknown or
// missing one is refused with 401 UNAUTHENTICATED before the document is parsed, and the
// tenant is a fact of the caller's identity, forwarded to subgraphs and echoed on the answer.
import {
  asOptionsObject,
  ClientErrorCode,
  checkKnownKeys,
  type GatewayPlugin,
  headerName,
  httpError,
  list,
  nonEmpty,
  OptionIssues,
  optionalValue,
} from '@fedgw/gateway/plugin-sdk';

// The tenant is a fact of the caller's identity, typed for every hook (declaration merging).
declare module '@fedgw/gateway/plugin-sdk' {
  interface Identity {
    readonly tenant?: string;
  }
}

export interface TenantGateOptions {
  /** The tenants admitted. Required, at least one. */
  readonly tenants: readonly string[];
  /** The request header naming the caller's tenant, also set on subgraph requests. Default: 'x-tenant' */
  readonly header?: string;
}

const PLUGIN = 'tenant-gate';
const KNOWN_OPTIONS = ['tenants', 'header'] as const satisfies readonly (keyof TenantGateOptions)[];

/** The module's default export: the factory the gateway calls with the config file's `options`. */
export default function tenantGate(input: TenantGateOptions): GatewayPlugin {
  // Every bad option is reported at once, named, and stops the start (ERR_GATEWAY_PLUGIN_OPTIONS_INVALID).
  const options = asOptionsObject(PLUGIN, input);
  const issues = new OptionIssues();
  checkKnownKeys(issues, options, KNOWN_OPTIONS);
  const tenants = new Set(optionalValue(issues, options, 'tenants', list(nonEmpty), []));
  if (options.tenants === undefined) issues.add('tenants', 'is required: the tenants admitted');
  const header = headerName(issues, 'header', options.header ?? 'x-tenant') ?? 'x-tenant';
  issues.throwIfAny(PLUGIN);

  return {
    name: PLUGIN,

    authenticate(scope) {
      const tenant = scope.headers[header];
      if (typeof tenant !== 'string' || !tenants.has(tenant)) {
        throw httpError(ClientErrorCode.UNAUTHENTICATED, `Unknown tenant: send a known one in ${header}`);
      }
      return { tenant };
    },

    onSubgraphRequest({ headers, context }) {
      const { tenant } = context.identity;
      if (tenant !== undefined) headers[header] = tenant;
    },

    apollo: {
      async requestDidStart() {
        return {
          async willSendResponse({ response, contextValue }) {
            const { tenant } = contextValue.identity;
            if (tenant !== undefined) response.http.headers.set(header, tenant);
          },
        };
      },
    },
  };
}
