import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';

// Which files the deletion journal is written to (docs/scripting.md, "The
// deletion journal"): never through a link in the state directory, never a
// mode set on a file that is not the user's, never appended to a file that
// is not a journal.

let dir: ReturnType<typeof tempDir>;
let server: RawServer;
let state: string;
beforeEach(async () => {
  dir = tempDir();
  state = join(dir.path, 'state');
  mkdirSync(state, { mode: 0o700 });
  server = await rawServer((_req, res) => res.writeHead(204).end());
});
afterEach(async () => {
  await server.close();
  dir.remove();
});

const plants = (args: string[]) =>
  runCli(args, {
    configDir: dir.path,
    env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: state },
  });
const deletesSeen = () => server.requests.filter((request) => request.method === 'DELETE');
const asRoot = process.getuid?.() === 0;
const journalPath = () => join(state, 'deletions.jsonl');

describe('the state directory journal', () => {
  it('a symbolic link in its place is refused, naming it and the ways on; the file it points to is left as it was', async () => {
    const elsewhere = join(dir.path, 'elsewhere.txt');
    writeFileSync(elsewhere, 'not yours\n', { mode: 0o644 });
    chmodSync(elsewhere, 0o644);
    symlinkSync(elsewhere, journalPath());
    for (const args of [
      ['delete', '1', '--yes'],
      ['delete', '1', '--yes', '--dry-run'],
    ]) {
      const r = await plants(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `plants: the deletion journal ${journalPath()} is a symbolic link, which plants does not follow there; nothing was deleted; run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record, or --no-journal --journal-file <path> to keep the journal elsewhere\n`,
      );
    }
    expect(deletesSeen()).toEqual([]);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not yours\n');
    expect(statSync(elsewhere).mode & 0o777).toBe(0o644);
    // The ways on work.
    expect((await plants(['delete', '1', '--yes', '--no-journal'])).code).toBe(0);
  });

  it.skipIf(!asRoot)('run as root, a journal another user owns keeps its mode', async () => {
    writeFileSync(journalPath(), '', { mode: 0o644 });
    chmodSync(journalPath(), 0o644);
    chownSync(journalPath(), 65534, 65534);
    expect((await plants(['delete', '1', '--yes'])).code).toBe(0);
    expect(statSync(journalPath()).mode & 0o777).toBe(0o644);
    expect(readFileSync(journalPath(), 'utf8')).toContain('"event":"outcome"');
  });

  it('a journal of its own is made private', async () => {
    writeFileSync(journalPath(), '', { mode: 0o644 });
    chmodSync(journalPath(), 0o644);
    expect((await plants(['delete', '1', '--yes'])).code).toBe(0);
    expect(statSync(journalPath()).mode & 0o777).toBe(0o600);
  });

  it('a state directory others can write to gets a one-line warning naming it; the run goes on', async () => {
    chmodSync(state, 0o777);
    const r = await plants(['delete', '1', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((line) => line.includes('warning'))).toEqual([
      `plants: warning: the directory of the deletion journal ${state} has mode 0777: others can replace the journal; run chmod 700 ${state}`,
    ]);
    chmodSync(state, 0o700);
    expect((await plants(['delete', '2', '--yes'])).stderr).not.toContain('warning');
  });

  it.skipIf(!asRoot)('a state directory another user owns gets a warning too', async () => {
    chownSync(state, 65534, 65534);
    const r = await plants(['delete', '1', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      `plants: warning: the directory of the deletion journal ${state} is owned by another user (uid 65534), who can replace the journal; set PLANTS_STATE_DIR to a directory of your own`,
    );
  });
});

describe('--journal-file that is not a journal', () => {
  it("a file whose first line is not a record (plants' own config.json) is refused, and left as it was", async () => {
    const config = join(dir.path, 'config.json');
    const text = '{\n  "profiles": {\n    "default": {}\n  }\n}\n';
    writeFileSync(config, text, { mode: 0o600 });
    for (const args of [
      ['delete', '1', '--yes', '--journal-file', config],
      ['delete', '1', '--yes', '--dry-run', '--journal-file', config],
      ['delete', '1', '--yes', '--no-journal', '--journal-file', config],
    ]) {
      const r = await plants(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `plants: --journal-file ${config} is not a deletion journal: its first line is not a journal record; nothing was deleted; name a new file, or one that --journal-file wrote\n`,
      );
    }
    expect(readFileSync(config, 'utf8')).toBe(text);
    expect(deletesSeen()).toEqual([]);
    // Nor is the state directory's journal left with a start record of a run that sent nothing.
    expect(existsSync(journalPath())).toBe(false);
  });

  it('a journal whose first record a full disk cut short is still a journal: appended to', async () => {
    const file = join(dir.path, 'cut.jsonl');
    writeFileSync(file, '{"v":1,"event":"start","run":"0f8e0c9a-00');
    expect((await plants(['delete', '1', '--yes', '--journal-file', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(5);
  });

  it('a journal --journal-file wrote is appended to; a new file and an empty one are journals to be', async () => {
    const file = join(dir.path, 'run.jsonl');
    expect((await plants(['delete', '1', '--yes', '--journal-file', file])).code).toBe(0);
    expect((await plants(['delete', '2', '--yes', '--journal-file', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(6);
    const empty = join(dir.path, 'empty.jsonl');
    writeFileSync(empty, '');
    expect((await plants(['delete', '3', '--yes', '--journal-file', empty])).code).toBe(0);
  });

  it('a directory is refused', async () => {
    const r = await plants(['delete', '1', '--yes', '--journal-file', dir.path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `plants: cannot write the deletion journal ${dir.path}: illegal operation on a directory (EISDIR); nothing was deleted; name a writable --journal-file, or leave it out\n`,
    );
    expect(deletesSeen()).toEqual([]);
  });

  it('- is refused, not taken for a file of that name', async () => {
    const r = await plants(['delete', '1', '--yes', '--journal-file', '-']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "plants: --journal-file - is not supported: stdout has the run's results, not its journal; nothing was deleted; give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)\n",
    );
    expect(existsSync(join(ROOT, '-'))).toBe(false);
    expect(deletesSeen()).toEqual([]);
  });
});
