import { join } from 'node:path';
import { findOnPath, isExecutableFile, ROUTER_VERSION, type RouterEnv } from '../targets/router-binary.js';

export interface BuildTools {
  readonly cargo: string | null;
  readonly protoc: string | null;
}

/**
 * cargo and protoc as the build would find them: on PATH (cargo also in `$CARGO_HOME/bin`,
 * where rustup puts it; protoc also as `$PROTOC`, which prost-build honours).
 */
export async function findBuildTools(env: RouterEnv): Promise<BuildTools> {
  let cargo = await findOnPath('cargo', env);
  if (!cargo) {
    const cargoHome = env.CARGO_HOME || (env.HOME ? join(env.HOME, '.cargo') : null);
    const candidate = cargoHome ? join(cargoHome, 'bin', 'cargo') : null;
    if (candidate && (await isExecutableFile(candidate))) cargo = candidate;
  }
  let protoc = env.PROTOC && (await isExecutableFile(env.PROTOC)) ? env.PROTOC : null;
  protoc ??= await findOnPath('protoc', env);
  return { cargo, protoc };
}

/** What to install when a build tool is missing; null when both are there. */
export function missingBuildToolsMessage(tools: BuildTools): string | null {
  const lines: string[] = [];
  if (!tools.cargo) {
    lines.push(
      '  - cargo (Rust) was not found on PATH or in ~/.cargo/bin. Install Rust with rustup:',
      "      curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh   (see https://rustup.rs)",
    );
  }
  if (!tools.protoc) {
    lines.push(
      '  - protoc (the Protocol Buffers compiler, needed by the Router build) was not found on PATH.',
      '      Debian/Ubuntu: sudo apt-get install protobuf-compiler',
      '      macOS: brew install protobuf',
    );
  }
  if (lines.length === 0) return null;
  return [
    `Cannot build Apollo Router ${ROUTER_VERSION} from source: missing build tools.`,
    ...lines,
    'Or install a Router binary yourself and point APOLLO_ROUTER_BIN at it.',
  ].join('\n');
}
