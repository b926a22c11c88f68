import { UPLOAD_VALUES } from '../../uploads/settings.js';
import { defineFields } from './spec.js';

/** File uploads (the GraphQL multipart request spec), streamed to the subgraph: on/off and limits. */
export const UPLOAD_FIELDS = defineFields([
  {
    key: 'uploads.enabled',
    env: 'UPLOADS',
    parse: UPLOAD_VALUES.enabled,
    meaning:
      'accept file uploads (`multipart/form-data`, the GraphQL multipart request spec) for mutations, streamed to the subgraph that owns the field; see [Uploads](uploads.md)',
  },
  {
    key: 'uploads.maxFiles',
    env: 'UPLOAD_MAX_FILES',
    parse: UPLOAD_VALUES.maxFiles,
    meaning: 'files one request may carry; a `map` naming more, or one file part more, gets 413 `PAYLOAD_TOO_LARGE`',
    feature: 'uploads',
  },
  {
    key: 'uploads.maxFileBytes',
    env: 'UPLOAD_MAX_FILE_BYTES',
    parse: UPLOAD_VALUES.maxFileBytes,
    meaning:
      'bytes one file may have, counted as it streams; a longer one is cut there, the subgraph sees its upload aborted and the client gets 413 `PAYLOAD_TOO_LARGE`',
    feature: 'uploads',
  },
  {
    key: 'uploads.idleTimeoutMs',
    env: 'UPLOAD_IDLE_TIMEOUT_MS',
    parse: UPLOAD_VALUES.idleTimeoutMs,
    meaning:
      'how long the gateway waits for the next byte of an upload it is ready to read; then the upload is aborted and the client gets 408 `UPLOAD_IDLE_TIMEOUT`',
    feature: 'uploads',
  },
  {
    key: 'uploads.maxPerClient',
    env: 'UPLOAD_MAX_PER_CLIENT',
    parse: UPLOAD_VALUES.maxPerClient,
    meaning:
      'uploads one client (its address, TRUSTED_PROXIES applied; an IPv6 address by its CLIENT_IPV6_PREFIX network) may have in flight; one more is refused before its body is read with 429 `UPLOAD_LIMIT_EXCEEDED`',
    feature: 'uploads',
  },
]);
