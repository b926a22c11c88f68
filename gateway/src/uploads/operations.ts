import { GraphQLError, getOperationAST, parse } from 'graphql';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import { UploadedFile, type UploadOwner } from './uploaded-file.js';

/** The operation with a placeholder at each file's path, and the files in the `map`'s order. */
export interface PlacedUploads {
  readonly body: Record<string, unknown>;
  readonly files: readonly UploadedFile[];
}

const badRequest = (message: string) => httpError(ClientErrorCode.BAD_REQUEST, `Upload refused: ${message}`);

/**
 * Reads the spec's `operations` and `map` fields: one operation (a batch is refused), a mutation,
 * each `map` entry naming paths `variables.<name>…` that exist and hold `null`. Each path gets the
 * placeholder of its file (uploaded-file.ts). A refusal is a GraphQLError for the client.
 */
export function placeUploads(
  operationsText: string,
  mapText: string,
  maxFiles: number,
  owner: UploadOwner,
): PlacedUploads | GraphQLError {
  const operations = parseJson(operationsText);
  if (!isRecord(operations)) return badRequest('`operations` must be one operation, a JSON object (no batch).');
  const map = parseJson(mapText);
  if (!isRecord(map)) return badRequest('`map` must be a JSON object of file keys to arrays of paths.');
  const keys = Object.keys(map);
  if (keys.length > maxFiles)
    return httpError(ClientErrorCode.PAYLOAD_TOO_LARGE, `Upload refused: more than ${maxFiles} files.`);
  const notMutation = mutationRefusal(operations);
  if (notMutation) return notMutation;
  const files: UploadedFile[] = [];
  for (const key of keys) {
    const paths = map[key];
    if (!Array.isArray(paths) || paths.length === 0) return badRequest(`\`map\` entry "${key}" must list paths.`);
    const file = new UploadedFile(key, files.length, owner);
    for (const path of paths) {
      const placed = typeof path === 'string' ? placeAt(operations, path, file) : false;
      if (!placed) return badRequest(`\`map\` path ${JSON.stringify(path)} names no null variable of the operation.`);
    }
    files.push(file);
  }
  return { body: operations, files };
}

/** Files go with mutations only: a query or subscription (or a document that does not parse) is refused here. */
function mutationRefusal(operations: Record<string, unknown>): GraphQLError | undefined {
  const { query, operationName } = operations;
  if (typeof query !== 'string') return badRequest('`operations` must carry its `query` (no persisted query id).');
  let type: string | undefined;
  try {
    type = getOperationAST(parse(query), typeof operationName === 'string' ? operationName : undefined)?.operation;
  } catch (error) {
    // The pipeline answers a document that does not parse with its own coded error.
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
  if (type === undefined || type === 'mutation') return undefined;
  return httpError(ClientErrorCode.UPLOAD_NOT_ALLOWED, `Files are accepted with mutations only, not with a ${type}.`);
}

/** Puts `file` at `path` (`variables.a.0.b`) where it holds null; false when the path leads nowhere. */
function placeAt(operations: Record<string, unknown>, path: string, file: UploadedFile): boolean {
  const steps = path.split('.');
  if (steps[0] !== 'variables' || steps.length < 2) return false;
  let at: unknown = operations;
  for (const step of steps.slice(0, -1)) {
    if (!isContainer(at) || at instanceof UploadedFile || !Object.hasOwn(at, step)) return false;
    at = (at as Record<string, unknown>)[step];
  }
  const last = steps[steps.length - 1] as string;
  if (
    !isContainer(at) ||
    at instanceof UploadedFile ||
    !Object.hasOwn(at, last) ||
    (at as Record<string, unknown>)[last] !== null
  )
    return false;
  (at as Record<string, unknown>)[last] = file;
  return true;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text, refusePrototypeKeys);
  } catch {
    return undefined;
  }
}

/** As the JSON body parsers refuse them: no key that reaches an object's prototype. */
function refusePrototypeKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || key === 'constructor') throw new SyntaxError('forbidden key');
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
