import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir, tokenLeak } from '../helpers/cli.js';
import { TOKEN } from '../helpers/servers.js';

// The e2e helpers check every run for the token; a leak must fail the run at once, not time out.
let dir: ReturnType<typeof tempDir>;
let script: string;
beforeEach(() => {
  dir = tempDir();
  script = join(dir.path, 'leak.js');
  writeFileSync(script, 'process[process.argv[2]].write(`the token is ${process.env.LEAK}\\n`);\n');
});
afterEach(() => dir.remove());

describe('the token-leak check of the CLI helpers', () => {
  it('tokenLeak names the stream the token showed up on', () => {
    expect(tokenLeak({ stdout: 'fine', stderr: 'fine' })).toBeUndefined();
    expect(tokenLeak({ stdout: `x${TOKEN}x`, stderr: '' })?.message).toMatch(/^the token leaked to stdout/);
    expect(tokenLeak({ stdout: '', stderr: TOKEN })?.message).toMatch(/^the token leaked to stderr/);
  });

  it('tokenLeak sees the token split by invisible characters, raw or escaped as a terminal shows them', () => {
    const split = (joiner: string) => `x ${Array.from(TOKEN).join(joiner)} x`;
    for (const joiner of ['\u200b', '\u00ad\u2060', '\u00a0', '\u{e0041}', '\\u200b', '\\u00ad\\ufeff']) {
      expect(tokenLeak({ stdout: split(joiner), stderr: '' })?.message, joiner).toMatch(
        /^the token leaked to stdout, split by invisible characters/,
      );
    }
    // Escapes of visible characters are text: not taken out.
    expect(tokenLeak({ stdout: split('\\u0041'), stderr: '' })).toBeUndefined();
  });

  it.each(['stdout', 'stderr'])('runCli rejects at once when the token shows up on %s', async (stream) => {
    const started = Date.now();
    await expect(runCli([stream], { configDir: dir.path, bin: script, env: { LEAK: TOKEN } })).rejects.toThrow(
      `the token leaked to ${stream}`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('runCli resolves when nothing leaks', async () => {
    const r = await runCli(['stdout'], { configDir: dir.path, bin: script, env: { LEAK: 'nothing' } });
    expect(r).toMatchObject({ code: 0, stdout: 'the token is nothing\n', stderr: '' });
  });

  it('runCli with stdoutTo: the child writes to that file, not the pipe', async () => {
    const file = join(dir.path, 'out.txt');
    const r = await runCli(['stdout'], { configDir: dir.path, bin: script, env: { LEAK: 'nothing' }, stdoutTo: file });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe('the token is nothing\n');
  });

  it('spawnCli: exit rejects at once when the token shows up', async () => {
    const started = Date.now();
    const { exit } = spawnCli(['stderr'], { configDir: dir.path, bin: script, env: { LEAK: TOKEN } });
    await expect(exit).rejects.toThrow('the token leaked to stderr');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await spawnCli(['stdout'], { configDir: dir.path, bin: script, env: { LEAK: 'x' } }).exit).toBe(0);
  });
});
