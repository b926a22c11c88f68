import { existsSync } from 'node:fs';

// The headless Chromium the HTML-report tests drive: CHROMIUM_PATH, else the machine's
// Debian chromium, else the one @sparticuz/chromium ships inside its npm package (unpacked to
// the temporary directory on first use), so `pnpm test` needs nothing beyond Node and npm.

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** Flags for a closed network and a root user: no background connections, no sandbox. */
const QUIET = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];

export interface HeadlessChromium {
  readonly executablePath: string;
  readonly args: readonly string[];
  /** Where it came from, for a test's failure message. */
  readonly source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

export async function headlessChromium(): Promise<HeadlessChromium> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return { executablePath: configured, args: QUIET, source: 'CHROMIUM_PATH' };
  if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, args: QUIET, source: 'system' };
  const { default: packaged } = await import('@sparticuz/chromium');
  // Not its own args: they are for AWS Lambda (`--single-process` closes the browser with the
  // first page a test closes).
  return { executablePath: await packaged.executablePath(), args: QUIET, source: '@sparticuz/chromium' };
}
