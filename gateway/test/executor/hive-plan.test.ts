import type { PlanNode as HivePlanNode } from '@graphql-hive/router-query-planner';
import { type DocumentNode, Kind, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { hiveLabels } from '../../src/executor/hive-plan/override-labels.js';
import { translateRewrites } from '../../src/executor/hive-plan/translate-fetch.js';
import { translatePlan } from '../../src/executor/hive-plan/translate-plan.js';
import { Untranslatable } from '../../src/executor/hive-plan/untranslatable.js';

const ENTITIES = 'query($representations:[_Any!]!){_entities(representations:$representations){...on Cat{age}}}';
const catFetch = (typeCondition = 'Cat'): HivePlanNode => ({
  kind: 'Fetch',
  serviceName: 'pets',
  operation: ENTITIES,
  requires: [{ kind: 'InlineFragment', typeCondition, selections: [{ kind: 'Field', name: 'id' }] }],
});
const NO_DOCUMENT: DocumentNode = { kind: Kind.DOCUMENT, definitions: [] };
const translated = (node: HivePlanNode) => translatePlan({ kind: 'QueryPlan', node }).node;

describe('a Hive plan in Apollo notation (ADR 061)', () => {
  it("spells Flatten paths as Apollo's, leaving out a last type condition the fetch's requires implies", () => {
    const node = translated({
      kind: 'Flatten',
      path: [{ Field: 'pets' }, '@', { TypeCondition: ['Cat'] }],
      node: catFetch(),
    });
    expect(node).toMatchObject({ kind: 'Flatten', path: ['pets', '@'], node: { kind: 'Fetch', serviceName: 'pets' } });
  });

  it('hands to Apollo a type condition it cannot spell: mid-path, or wider than the requires', () => {
    const mid = {
      kind: 'Flatten',
      path: [{ Field: 'a' }, { TypeCondition: ['Book'] }, { Field: 'b' }],
      node: catFetch(),
    };
    expect(() => translated(mid as HivePlanNode)).toThrow(Untranslatable);
    const wider = { kind: 'Flatten', path: [{ Field: 'pets' }, '@', { TypeCondition: ['Dog'] }], node: catFetch() };
    expect(() => translated(wider as HivePlanNode)).toThrow(Untranslatable);
  });

  it('turns a requires field read under one key and sent under another into an input KeyRenamer', () => {
    const fetch = translated({
      kind: 'Fetch',
      serviceName: 'freight',
      operation: ENTITIES,
      requires: [
        {
          kind: 'InlineFragment',
          typeCondition: 'Item',
          selections: [
            { kind: 'Field', name: '__typename' },
            { kind: 'Field', name: '_internal_qp_alias_0', alias: 'cost' },
          ],
        },
      ],
    });
    expect(fetch).toMatchObject({
      requires: [
        {
          kind: 'InlineFragment',
          typeCondition: 'Item',
          selections: [{ name: '__typename' }, { name: '_internal_qp_alias_0' }],
        },
      ],
      inputRewrites: [{ kind: 'KeyRenamer', path: ['... on Item', '_internal_qp_alias_0'], renameKeyTo: 'cost' }],
    });
  });

  it('writes one rewrite per type a path step names', () => {
    const rewrites = translateRewrites([
      { ValueSetter: { path: [{ TypenameEquals: ['A', 'B'] }, { Key: '__typename' }], setValueTo: 'I' } },
      { KeyRenamer: { path: [{ Key: 'x' }], renameKeyTo: 'y' } },
    ]);
    expect(rewrites).toEqual([
      { kind: 'ValueSetter', path: ['... on A', '__typename'], setValueTo: 'I' },
      { kind: 'ValueSetter', path: ['... on B', '__typename'], setValueTo: 'I' },
      { kind: 'KeyRenamer', path: ['x'], renameKeyTo: 'y' },
    ]);
  });

  it('splits a BatchFetch into one entity fetch per alias and path, each with its own variables', () => {
    const node = translated({
      kind: 'BatchFetch',
      serviceName: 'freight',
      operation:
        'query($__batch_reps_0:[_Any!]!,$__batch_reps_1:[_Any!]!,$unit:String){_e0:_entities(representations:$__batch_reps_0){...on Item{a(unit:$unit)}} _e1:_entities(representations:$__batch_reps_1){...on Item{b}}}',
      variableUsages: ['unit'],
      entityBatch: {
        aliases: [
          {
            alias: '_e0',
            representationsVariableName: '__batch_reps_0',
            paths: [[{ Field: 'items' }, '@']],
            requires: [],
          },
          {
            alias: '_e1',
            representationsVariableName: '__batch_reps_1',
            paths: [
              [{ Field: 'items' }, '@'],
              [{ Field: 'more' }, '@'],
            ],
            requires: [],
          },
        ],
      },
    });
    expect(node?.kind).toBe('Parallel');
    const fetches = (node as { nodes: { path: string[]; node: { operation: string; variableUsages?: string[] } }[] })
      .nodes;
    expect(fetches.map(({ path }) => path)).toEqual([
      ['items', '@'],
      ['items', '@'],
      ['more', '@'],
    ]);
    expect(fetches[0]?.node.variableUsages).toEqual(['unit']);
    expect(fetches[1]?.node.variableUsages).toBeUndefined();
    expect(
      print(
        (fetches[1]?.node as unknown as { operationDocumentNode: DocumentNode } | undefined)?.operationDocumentNode ??
          NO_DOCUMENT,
      ),
    ).toBe(
      'query ($representations: [_Any!]!) {\n  _entities(representations: $representations) {\n    ... on Item {\n      b\n    }\n  }\n}',
    );
  });

  it('hands Defer and Subscription nodes to Apollo', () => {
    expect(() => translated({ kind: 'Defer', primary: {}, deferred: [] })).toThrow(Untranslatable);
  });
});

describe('progressive-override labels as Hive takes them', () => {
  it('turns every percent(N) label off with no decision, and exactly the decided ones on otherwise', () => {
    expect(hiveLabels(undefined, [25, 50])).toEqual({ custom: new Set(), percentageValue: 50 });
    const decision = (on: string[]) => ({ on, conditions: new Map(on.map((label) => [label, true])) });
    // A draw of 30: percent(50) on, percent(25) off; Hive turns on N above the value.
    expect(hiveLabels(decision(['percent(50)', 'beta']), [25, 50])).toEqual({
      custom: new Set(['beta']),
      percentageValue: 25,
    });
    expect(hiveLabels(decision(['percent(25)', 'percent(50)']), [25, 50])).toEqual({
      custom: new Set(),
      percentageValue: 0,
    });
  });

  it('answers undefined (Apollo plans it) for a set no one number gives', () => {
    const on = ['percent(25)'];
    expect(hiveLabels({ on, conditions: new Map([['percent(25)', true]]) }, [25, 50])).toBeUndefined();
  });
});
