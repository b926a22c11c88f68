import { expect } from 'vitest';
import { GatewayErrorCode, PluginOptionsError } from '../../../src/errors.js';

/** Asserts that `build` throws a PluginOptionsError for `plugin` and returns it. */
export function optionsError(plugin: string, build: () => unknown): PluginOptionsError {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(PluginOptionsError);
  const error = thrown as PluginOptionsError;
  expect(error.code).toBe(GatewayErrorCode.PLUGIN_OPTIONS_INVALID);
  expect(error.plugin).toBe(plugin);
  return error;
}

/** The `field`s of a PluginOptionsError's issues, sorted. */
export function issueFields(error: PluginOptionsError): string[] {
  return error.issues.map((issue) => issue.field).sort();
}
