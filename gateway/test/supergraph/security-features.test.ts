import { readFileSync } from 'node:fs';
import { SUPERGRAPH_PATH } from '@fedgw/test-support';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { authorization } from '../../src/plugins/authorization/index.js';
import { readAuthorizationRules } from '../../src/plugins/authorization/rules.js';
import { enforcedFeatures, forApolloGateway, withoutSecurityFeatures } from '../../src/supergraph/security-features.js';

const RAW = readFileSync(SUPERGRAPH_PATH, 'utf8');

describe('security features of the supergraph', () => {
  it('are unmarked for @apollo/gateway only where a plugin enforces them, and their rules stay readable', () => {
    const enforced = enforcedFeatures([authorization()]);
    const handed = forApolloGateway(RAW, enforced);
    expect(handed).not.toContain('for: SECURITY');
    expect(readAuthorizationRules(handed).fields.get('User.address')).toEqual([{ kind: 'authenticated' }]);
    // No plugin: handed as it is, for @apollo/gateway to refuse.
    expect(forApolloGateway(RAW, enforcedFeatures([]))).toBe(RAW);
  });

  it('a security feature no plugin enforces keeps its mark', () => {
    const other = RAW.replace(
      '@link(url: "https://specs.apollo.dev/policy/v0.1", for: SECURITY)',
      '@link(url: "https://specs.apollo.dev/policy/v0.1", for: SECURITY) @link(url: "https://example.com/rowLevel/v0.1", for: SECURITY)',
    );
    expect(forApolloGateway(other, enforcedFeatures([authorization()]))).toContain(
      '@link(url: "https://example.com/rowLevel/v0.1", for: SECURITY)',
    );
  });

  it('can be removed whole, for peers that do not enforce them (the benchmark)', () => {
    const open = withoutSecurityFeatures(RAW);
    // (Descriptions may still name the directives; no definition, link or use is left.)
    expect(open).not.toMatch(/for: SECURITY|directive @(authenticated|requiresScopes|policy)|__Scope|__Policy/);
    expect(open).not.toMatch(/\) @(authenticated|requiresScopes|policy)\b/);
    expect(readAuthorizationRules(open).fields.size).toBe(0);
    // Everything else stays: the same types and fields.
    expect(open).toContain('address: String!');
    expect(parse(open).definitions.length).toBe(parse(RAW).definitions.length - 5);
  });
});
