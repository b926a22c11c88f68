import type { QueryPlan } from '@apollo/query-planner';
import { describe, expect, it } from 'vitest';
import { uploadPlanRefusal } from '../../src/uploads/plan-check.js';
import { UploadedFile } from '../../src/uploads/uploaded-file.js';

/** Files go to one root subgraph fetch: a plan that would use one in an entity fetch, or in two fetches, is refused. */
const owner = { failure: undefined, waiting: () => {} };
const fetch = (service: string, variableUsages: string[], requires?: unknown) => ({
  kind: 'Fetch',
  serviceName: service,
  variableUsages,
  ...(requires ? { requires } : {}),
});
const plan = (node: unknown) => ({ kind: 'QueryPlan', node }) as unknown as QueryPlan;
const multipart = { headers: new Map([['content-type', 'multipart/form-data; boundary=x']]) };
const asked = (variables: Record<string, unknown>) => ({ http: multipart, variables });
const variables = { a: new UploadedFile('0', 0, owner), b: [new UploadedFile('1', 1, owner)], id: 'x' };

describe('the plan check of uploads', () => {
  it('lets files through to one root fetch', () => {
    expect(uploadPlanRefusal(plan(fetch('reviews', ['a', 'b', 'id'])), asked(variables))).toBeUndefined();
  });

  it('refuses files spread over two fetches', () => {
    const node = { kind: 'Sequence', nodes: [fetch('reviews', ['a']), fetch('users', []), fetch('reviews', ['b'])] };
    expect(uploadPlanRefusal(plan(node), asked(variables))?.extensions.code).toBe('UPLOAD_NOT_ALLOWED');
  });

  it('refuses a file in an entity fetch', () => {
    const node = { kind: 'Flatten', path: ['x'], node: fetch('reviews', ['a'], [{ kind: 'InlineFragment' }]) };
    expect(uploadPlanRefusal(plan(node), asked(variables))?.extensions.code).toBe('UPLOAD_NOT_ALLOWED');
  });

  it('has nothing to say of a plan without files', () => {
    const node = { kind: 'Sequence', nodes: [fetch('reviews', ['id']), fetch('users', ['id'])] };
    expect(uploadPlanRefusal(plan(node), asked({ id: 'x' }))).toBeUndefined();
  });
});
