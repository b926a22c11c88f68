import { boolean, byteSize, duration, integer, type SettingsOf, withDefault } from '../settings/kinds.js';

/** The `uploads` group's schemas (UPLOADS, UPLOAD_*), by config name. */
export const UPLOAD_VALUES = Object.freeze({
  enabled: withDefault(boolean, false),
  maxFiles: withDefault(integer(1, 100), 5),
  maxFileBytes: withDefault(byteSize(1, 10 * 1024 ** 3), 10 * 1024 ** 2),
  idleTimeoutMs: withDefault(duration(100, 600_000), 10_000),
  maxPerClient: withDefault(integer(1, 1000), 2),
});

/** The `uploads` group of the configuration, as read. */
export type UploadConfig = SettingsOf<typeof UPLOAD_VALUES>;
