import {
  type ASTVisitor,
  type DirectiveNode,
  GraphQLError,
  getNamedType,
  isListType,
  isNonNullType,
  Kind,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/**
 * graphql-js 17's validation rules for `@stream` (and the label rule it shares with `@defer`),
 * ported to graphql 16, which has none of them: Apollo Server runs them with its own, so a
 * breach is GRAPHQL_VALIDATION_FAILED (400) before anything runs, on every transport.
 *
 * - StreamDirectiveOnListFieldRule: `@stream` only on a field of list type.
 * - DeferStreamDirectiveOnRootFieldRule (its @stream half): not on a root field of a mutation
 *   or subscription (the @defer half is the planner's: a subscription's @defer is refused there).
 * - DeferStreamDirectiveOnValidOperationsRule (its @stream half): not in a subscription unless `if: false`.
 * - DeferStreamDirectiveLabelRule: a label is a static string, unique among the operation's @defer and @stream.
 * - And graphql-js 17's execution check, moved to validation where it is a literal: `initialCount` ≥ 0.
 */
export const streamValidationRules: readonly ValidationRule[] = [streamDirectiveRule, labelRule];

function isStream(directive: DirectiveNode): boolean {
  return directive.name.value === 'stream';
}

function argument(directive: DirectiveNode, name: string) {
  return directive.arguments?.find((node) => node.name.value === name)?.value;
}

function streamDirectiveRule(context: ValidationContext): ASTVisitor {
  let operationKind: string | undefined;
  return {
    OperationDefinition: {
      enter(node) {
        operationKind = node.operation;
      },
    },
    Directive(node, _key, _parent, _path, ancestors) {
      if (!isStream(node)) return;
      const field = ancestors[ancestors.length - 1];
      if (!field || !('kind' in field) || field.kind !== Kind.FIELD) return;
      const definition = context.getFieldDef();
      if (definition) {
        const type = isNonNullType(definition.type) ? definition.type.ofType : definition.type;
        if (!isListType(type))
          context.reportError(
            new GraphQLError(
              `Stream directive cannot be used on non-list field "${definition.name}" on type "${getNamedType(context.getParentType() ?? undefined)?.name}".`,
              { nodes: node },
            ),
          );
      }
      const parent = context.getParentType();
      const schema = context.getSchema();
      if (parent && (parent === schema.getMutationType() || parent === schema.getSubscriptionType()))
        context.reportError(
          new GraphQLError(
            `Stream directive cannot be used on root ${operationKind ?? 'operation'} type "${parent.name}".`,
            {
              nodes: node,
            },
          ),
        );
      const condition = argument(node, 'if');
      const off = condition?.kind === Kind.BOOLEAN && condition.value === false;
      if (operationKind === 'subscription' && !off)
        context.reportError(
          new GraphQLError(
            'Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`.',
            { nodes: node },
          ),
        );
      const count = argument(node, 'initialCount');
      if (count?.kind === Kind.INT && Number(count.value) < 0)
        context.reportError(new GraphQLError('initialCount must be a positive integer', { nodes: node }));
    },
  };
}

function labelRule(context: ValidationContext): ASTVisitor {
  // Document-wide, as graphql-js 17's rule: a fragment's labels count wherever it is spread.
  const seen = new Map<string, DirectiveNode>();
  return {
    Directive(node) {
      if (node.name.value !== 'defer' && !isStream(node)) return;
      const label = argument(node, 'label');
      if (!label) return;
      if (label.kind !== Kind.STRING) {
        context.reportError(
          new GraphQLError(`Argument "@${node.name.value}(label:)" must be a static string.`, { nodes: node }),
        );
        return;
      }
      const other = seen.get(label.value);
      if (other)
        context.reportError(
          new GraphQLError(
            'Value for arguments "defer(label:)" and "stream(label:)" must be unique across all Defer/Stream directive usages.',
            {
              nodes: [other, node],
            },
          ),
        );
      else seen.set(label.value, node);
    },
  };
}
