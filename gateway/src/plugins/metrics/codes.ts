import { isClientErrorCode } from '../../plugin-sdk/index.js';

/** Codes outside the registry (a custom plugin's, a subgraph's own) share one label value. */
export const OTHER_CODE = '__other';

export function codeLabel(code: unknown): string {
  return isClientErrorCode(code) ? code : OTHER_CODE;
}
