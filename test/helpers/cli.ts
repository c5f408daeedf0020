import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { TOKEN } from './servers.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PLANTS_BIN = join(ROOT, 'bin', 'plants.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A temporary directory that stands in for HOME and the config directory. */
export function tempDir(prefix = 'plants-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Spawn the built bin/plants.js (asynchronously: the test's own servers must
 * keep answering). The environment is built from scratch: no user config, no
 * colour, HOME pointing at the test's directory. The token must never show
 * up in what the CLI prints; every run checks it.
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; configDir: string; command?: string[] },
): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.configDir,
    PLANTS_CONFIG_DIR: options.configDir,
    NO_COLOR: '1',
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const [command, ...prefix] = options.command ?? [process.execPath, PLANTS_BIN];
  return new Promise((resolve, reject) => {
    const child = spawn(command!, [...prefix, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      expect(stdout, 'the token leaked to stdout').not.toContain(TOKEN);
      expect(stderr, 'the token leaked to stderr').not.toContain(TOKEN);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
