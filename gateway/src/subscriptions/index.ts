import type { ApolloGateway } from '@apollo/gateway';
import { replaceExecutor } from '../execute-hooks.js';
import { type SubscriptionExecutorOptions, subscriptionExecutor } from './subscription-executor.js';

/** `gateway` (the executor chosen by QUERY_PLAN_EXECUTOR) with subscription operations run by subscription-executor.ts. */
export function withSubscriptions(
  gateway: ReturnType<typeof replaceExecutor>,
  apollo: ApolloGateway,
  options: SubscriptionExecutorOptions,
): ReturnType<typeof replaceExecutor> {
  return replaceExecutor(gateway, (next) => subscriptionExecutor(apollo, next, options));
}
