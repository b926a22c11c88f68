import { assert, type Directive, type DirectiveDefinition, type Schema, Variable } from '@apollo/federation-internals';

// biome-ignore lint/suspicious/noExplicitAny: federation-internals types a directive by the element it is on
type AnyDirective = Directive<any>;

/** An `@skip`/`@include` argument: a literal, or a variable and the text its assertion message names. */
export type IfArgument = boolean | { readonly variable: string; readonly describe: (value: unknown) => string };

/** The first `@skip` and first `@include` of a selection (what resultShaping.js reads), read once. */
export function ifArgumentsOf(
  element: { appliedDirectivesOf(definition: DirectiveDefinition): readonly AnyDirective[] },
  schema: Schema,
): { skip: IfArgument | undefined; include: IfArgument | undefined } {
  return {
    skip: argumentOf(element.appliedDirectivesOf(schema.skipDirective())[0]),
    include: argumentOf(element.appliedDirectivesOf(schema.includeDirective())[0]),
  };
}

function argumentOf(directive: AnyDirective | undefined): IfArgument | undefined {
  if (!directive) return undefined;
  const argument = (directive.arguments() as { if: unknown }).if;
  if (!(argument instanceof Variable)) return argument as boolean;
  const text = `for variable ${argument} of ${directive}`;
  return { variable: argument.name, describe: (value) => `Unexpected value ${value} ${text}` };
}

/** resultShaping.js's `shouldSkip`, with the same assertion when a variable is not a boolean. */
export function shouldSkip(
  skip: IfArgument | undefined,
  include: IfArgument | undefined,
  variables: Record<string, unknown>,
): boolean {
  if (skip === undefined && include === undefined) return false;
  return (skip !== undefined && ifValue(skip, variables)) || (include !== undefined && !ifValue(include, variables));
}

function ifValue(argument: IfArgument, variables: Record<string, unknown>): boolean {
  if (typeof argument === 'boolean') return argument;
  const value = variables[argument.variable];
  assert(value !== undefined && typeof value === 'boolean', () => argument.describe(value));
  return value as boolean;
}
