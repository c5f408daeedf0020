import {
  chownSync,
  closeSync,
  fsyncSync,
  openSync,
  renameSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { constants, hostname } from 'node:os';
import { getSystemErrorMap, getSystemErrorName } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { abandonedTemporaries, writeFileAtomically, type WriteFs } from '../../src/config/atomic-write.js';
import { openConfigStore } from '../../src/config/open.js';
import { ConfigError } from '../../src/shared/errors.js';
import { tempDir } from '../helpers/cli.js';

let dir: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  dir = tempDir();
  file = join(dir.path, 'config.json');
});
afterEach(() => dir.remove());

const env = () => ({ PLANTS_CONFIG_DIR: dir.path });

/** An error as node:fs throws it (EDQUOT, which node 20's libuv cannot name, as "Unknown system error -122"). */
function systemError(name: keyof typeof constants.errno, syscall: string): NodeJS.ErrnoException {
  const errno = -constants.errno[name];
  const code = getSystemErrorName(errno);
  const description = getSystemErrorMap().get(errno)?.[1] ?? code;
  return Object.assign(new Error(`${code}: ${description}, ${syscall}`), { code, errno, syscall });
}
const fail = (name: keyof typeof constants.errno, syscall: string) => () => {
  throw systemError(name, syscall);
};

/** A config holding two profiles' tokens, and its exact bytes. */
async function configWithTokens(): Promise<Buffer> {
  const store = await openConfigStore(env());
  store.set('default', 'base-url', 'https://plants.example.com/api');
  store.set('default', 'token', 'default-token');
  store.set('default', 'token-origin', 'https://plants.example.com');
  store.set('staging', 'token', 'staging-token');
  store.set('staging', 'token-origin', 'https://staging.example.com');
  return readFileSync(file);
}

const failures: [string, Partial<WriteFs>, string | RegExp][] = [
  ['the disk is full at once', { writeSync: fail('ENOSPC', 'write') }, 'no space left on device (ENOSPC)'],
  [
    'a short write, then a full disk',
    {
      writeSync: (fd, buffer, offset, length, position) =>
        offset === 0 ? writeSync(fd, buffer, offset, Math.min(length, 10), position) : fail('ENOSPC', 'write')(),
    },
    'no space left on device (ENOSPC)',
  ],
  ['a write that writes nothing and says so', { writeSync: () => 0 }, /^only 0 of \d+ bytes could be written$/],
  [
    "a write that writes less than it says (as conf's writer trusted)",
    {
      writeSync: (fd, buffer, offset, length, position) => (
        writeSync(fd, buffer, offset, Math.min(length, 10), position),
        length
      ),
    },
    /^the file written holds 10 bytes instead of \d+$/,
  ],
  ['the quota is exceeded', { writeSync: fail('EDQUOT', 'write') }, 'disk quota exceeded (EDQUOT)'],
  ['fsync fails', { fsyncSync: fail('EIO', 'fsync') }, 'i/o error (EIO)'],
  [
    'the file reads back differently',
    {
      readSync: (fd, buffer, offset, length, position) => {
        const read = readSync(fd, buffer, offset, length, position);
        buffer[offset] = 0x21;
        return read;
      },
    },
    'the file written does not read back as what was written',
  ],
  ['the file reads back short', { readSync: () => 0 }, 'the file written does not read back as what was written'],
  ['close reports the failure', { closeSync: fail('EDQUOT', 'close') }, 'disk quota exceeded (EDQUOT)'],
  ['rename is refused', { renameSync: fail('EACCES', 'rename') }, 'permission denied (EACCES)'],
  ['the temporary file cannot be made', { openSync: fail('EROFS', 'open') }, 'read-only file system (EROFS)'],
];

describe('a config write that fails', () => {
  it.each(failures)(
    'when %s: a ConfigError, and the old file byte for byte, with nothing left behind',
    async (_case, fs, reason) => {
      const before = await configWithTokens();
      const store = await openConfigStore(env(), undefined, { fs });
      const err = (() => {
        try {
          store.set('default', 'base-url', 'https://other.example.com');
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      const prefix = `cannot write the config file ${file}: `;
      const suffix = '; nothing was changed';
      expect(message.startsWith(prefix) && message.endsWith(suffix), message).toBe(true);
      const shown = message.slice(prefix.length, -suffix.length);
      if (typeof reason === 'string') expect(shown).toBe(reason);
      else expect(shown).toMatch(reason);
      expect(message).not.toContain('\n');
      expect(readFileSync(file).equals(before)).toBe(true);
      // No temporary file, no lock.
      expect(readdirSync(dir.path)).toEqual(['config.json']);
      expect((await openConfigStore(env())).get('staging', 'token')).toBe('staging-token');
    },
  );
});

describe('a config write that succeeds', () => {
  it('replaces the file with mode 0600 and leaves nothing else', async () => {
    await configWithTokens();
    const store = await openConfigStore(env());
    store.set('default', 'base-url', 'https://other.example.com');
    expect(readdirSync(dir.path)).toEqual(['config.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: {
        default: {
          'base-url': 'https://other.example.com',
          token: 'default-token',
          'token-origin': 'https://plants.example.com',
        },
        staging: { token: 'staging-token', 'token-origin': 'https://staging.example.com' },
      },
    });
  });

  it('keeps a symbolic link, writing to where it points', async () => {
    const elsewhere = join(dir.path, 'dotfiles');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'plants.json'), '{}', { mode: 0o600 });
    symlinkSync(join(elsewhere, 'plants.json'), file);
    (await openConfigStore(env())).set('default', 'token', 'abc');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(elsewhere, 'plants.json'), 'utf8'))).toEqual({
      profiles: { default: { token: 'abc' } },
    });
    expect(readdirSync(elsewhere)).toEqual(['plants.json']);
  });

  it('keeps a symbolic link to nothing yet (dotfiles linked before the file), making the file where it points', async () => {
    const elsewhere = join(dir.path, 'dotfiles');
    mkdirSync(elsewhere);
    // Relative, and through a second link: each is read from where it is.
    symlinkSync('plants.json', join(elsewhere, 'config-link'));
    symlinkSync(join('dotfiles', 'config-link'), file);
    (await openConfigStore(env())).set('default', 'token', 'abc');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(elsewhere, 'config-link')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(elsewhere, 'plants.json'), 'utf8'))).toEqual({
      profiles: { default: { token: 'abc' } },
    });
    expect(statSync(join(elsewhere, 'plants.json')).mode & 0o777).toBe(0o600);
  });

  it('a loop of links is not followed: the write replaces the first link, never a link further along', () => {
    symlinkSync('b', join(dir.path, 'a'));
    symlinkSync('config.json', join(dir.path, 'b'));
    symlinkSync('a', file);
    writeFileAtomically(file, 'x');
    expect(readFileSync(file, 'utf8')).toBe('x');
    expect(lstatSync(join(dir.path, 'a')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir.path, 'b')).isSymbolicLink()).toBe(true);
  });

  it.runIf(process.geteuid?.() === 0)("run by root, leaves the file its owner's (sudo plants …)", async () => {
    await configWithTokens();
    chownSync(file, 4321, 4321);
    (await openConfigStore(env())).set('default', 'token', 'abc');
    expect(statSync(file)).toMatchObject({ uid: 4321, gid: 4321 });
  });

  it.runIf(process.geteuid?.() === 0).each([
    [0, 4321],
    [4321, 0],
  ])('run by root, keeps an owner %i and group %i that differ only in part', async (uid, gid) => {
    await configWithTokens();
    chownSync(file, uid, gid);
    (await openConfigStore(env())).set('default', 'token', 'abc');
    expect(statSync(file)).toMatchObject({ uid, gid });
  });

  it('carries on after short writes and short reads (a disk that takes 10 bytes at a time)', async () => {
    await configWithTokens();
    const fs: Partial<WriteFs> = {
      writeSync: (fd, buffer, offset, length, position) =>
        writeSync(fd, buffer, offset, Math.min(length, 10), position),
      readSync: (fd, buffer, offset, length, position) => readSync(fd, buffer, offset, Math.min(length, 10), position),
    };
    (await openConfigStore(env(), undefined, { fs })).set('default', 'token', 'abc');
    expect((await openConfigStore(env())).get('default', 'token')).toBe('abc');
    expect(readdirSync(dir.path)).toEqual(['config.json']);
  });
});

describe('writeFileAtomically', () => {
  it('makes a new file 0600 unless told otherwise', () => {
    writeFileAtomically(file, 'secret\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('secret\n');
  });

  it('after the rename, syncs the directory too, so the rename survives a crash', () => {
    const calls: string[] = [];
    const fds = new Map<number, string>();
    writeFileAtomically(file, 'x', {
      fs: {
        openSync: (path, flags, mode) => {
          const fd = openSync(path, flags, mode);
          fds.set(fd, path === dir.path ? 'dir' : 'temp');
          return fd;
        },
        fsyncSync: (fd) => {
          calls.push(`fsync ${fds.get(fd)}`);
          fsyncSync(fd);
        },
        renameSync: (from, to) => {
          calls.push('rename');
          renameSync(from, to);
        },
        closeSync: (fd) => {
          calls.push(`close ${fds.get(fd)}`);
          closeSync(fd);
        },
      },
    });
    expect(calls).toEqual(['fsync temp', 'close temp', 'rename', 'fsync dir', 'close dir']);
  });

  it('never writes through something already at the temporary name (a link planted there): it fails instead', () => {
    const elsewhere = join(dir.path, 'elsewhere');
    writeFileSync(elsewhere, 'theirs');
    // The name the writer picks with Math.random() at 0.5.
    const planted = `config.json.${process.pid}.${(0.5).toString(36).slice(2, 10)}.tmp`;
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      symlinkSync(elsewhere, join(dir.path, planted));
      expect(() => writeFileAtomically(file, 'token=secret\n')).toThrow(/EEXIST/);
    } finally {
      random.mockRestore();
    }
    expect(readFileSync(elsewhere, 'utf8')).toBe('theirs');
    // No config.json; what was there is left as it was, not the writer's to remove.
    expect(readdirSync(dir.path).sort()).toEqual([planted, 'elsewhere']);
  });

  it('closes the temporary file when the write fails before it was closed', () => {
    const closed: number[] = [];
    let opened = -1;
    expect(() =>
      writeFileAtomically(file, 'x', {
        fs: {
          openSync: (path, flags, mode) => (opened = openSync(path, flags, mode)),
          fsyncSync: fail('EIO', 'fsync'),
          closeSync: (fd) => {
            closed.push(fd);
            closeSync(fd);
          },
        },
      }),
    ).toThrow(/EIO/);
    expect(closed).toEqual([opened]);
    expect(readdirSync(dir.path)).toEqual([]);
  });
});

describe('the 1 MiB limit', () => {
  it('refuses to write a config larger than 1 MiB, leaving the old one', async () => {
    const before = await configWithTokens();
    const store = await openConfigStore(env());
    expect(() => store.set('default', 'token', 'x'.repeat(1024 * 1024))).toThrow(
      new ConfigError(
        `cannot write the config file ${file}: it would be 1048827 bytes, more than the 1 MiB (1048576 bytes) a config file may hold; nothing was changed`,
      ),
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(dir.path)).toEqual(['config.json']);
  });

  it.each([
    [
      '1 MiB and a byte of valid JSON',
      () => writeFileSync(file, `{"profile": "default"${' '.repeat(1024 * 1024 - 21)}}`),
      1024 * 1024 + 1,
    ],
    ['8 GiB (sparse)', () => truncateSync((writeFileSync(file, ''), file), 8 * 1024 ** 3), 8 * 1024 ** 3],
  ])('refuses to read a config file of %s, and leaves it alone', async (_case, make, size) => {
    make();
    const err = await openConfigStore(env()).catch((caught: unknown) => caught);
    expect(err).toEqual(
      new ConfigError(
        `cannot read the config file ${file}: it is ${size} bytes, more than the 1 MiB (1048576 bytes) a config file may hold; fix it, or remove it and configure again`,
      ),
    );
    expect(statSync(file).size).toBe(size);
  });

  it('refuses to write a file that grew past the limit after the store was opened; reads answer from the file as opened', async () => {
    await configWithTokens();
    const store = await openConfigStore(env());
    const token = store.get('default', 'token');
    truncateSync(file, 2 * 1024 * 1024);
    // One read a run: what the file held when the run opened it.
    expect(store.get('default', 'token')).toBe(token);
    expect(() => store.set('default', 'token', 'abc')).toThrow(/it is 2097152 bytes, more than the 1 MiB/);
    // After a write (here refused), the next question reads the file again.
    expect(() => store.get('default', 'token')).toThrow(ConfigError);
    expect(statSync(file).size).toBe(2 * 1024 * 1024);
  });
});

describe('a config file that is not a file', () => {
  it('refuses a directory named config.json, reading or writing', async () => {
    mkdirSync(file);
    await expect(openConfigStore(env())).rejects.toThrow(
      new ConfigError(
        `cannot read the config file ${file}: it is a directory; fix it, or remove it and configure again`,
      ),
    );
  });
});

describe('the config directory', () => {
  it('names what is in the way of making it', async () => {
    writeFileSync(join(dir.path, 'file'), '');
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: join(dir.path, 'file') })).rejects.toThrow(
      new ConfigError(
        `cannot create the config directory ${join(dir.path, 'file')}: something that is not a directory is in its place`,
      ),
    );
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: join(dir.path, 'file', 'plants') })).rejects.toThrow(
      new ConfigError(
        `cannot create the config directory ${join(dir.path, 'file', 'plants')}: not a directory (ENOTDIR)`,
      ),
    );
  });

  it('makes every missing level 0700', async () => {
    const where = join(dir.path, 'a', 'b', 'c');
    (await openConfigStore({ PLANTS_CONFIG_DIR: where })).set('default', 'token', 'abc');
    for (const level of [join(dir.path, 'a'), join(dir.path, 'a', 'b'), where])
      expect(statSync(level).mode & 0o777).toBe(0o700);
  });
});

describe('temporary files left behind by a run killed mid-write (they may hold a token)', () => {
  /** Above the largest pid Linux hands out (pid_max is at most 2^22): a run that has ended. */
  const ENDED_PID = 2 ** 22 + 1;
  /** init: alive in every pid namespace. */
  const LIVE_PID = 1;
  const leftover = (pid: number, secondsOld = 0, random = 'k3x9q2ab') => {
    const path = `${file}.${pid}.${random}.tmp`;
    writeFileSync(path, '{"profiles":{"default":{"token":"left-behind"}}}', { mode: 0o600 });
    const then = new Date(Date.now() - secondsOld * 1000);
    utimesSync(path, then, then);
    return path;
  };

  it('the next write removes those of ended runs, of this pid and old ones; keeps a live run’s and others’ files', async () => {
    await configWithTokens();
    const ended = leftover(ENDED_PID);
    const ours = leftover(process.pid);
    // A live pid's file older than 10 s: the pid may be another process's by now.
    const oldLive = leftover(LIVE_PID, 11);
    leftover(LIVE_PID, 0, 'zz1');
    const unrelated = ['config.json.bak', `config.json.${ENDED_PID}.tmp`, `other.json.${ENDED_PID}.abc.tmp`];
    for (const name of unrelated) writeFileSync(join(dir.path, name), '');
    expect(abandonedTemporaries(file).sort()).toEqual([ended, oldLive, ours].sort());

    (await openConfigStore(env())).set('default', 'base-url', 'https://other.example.com');
    expect(readdirSync(dir.path).sort()).toEqual(
      ['config.json', ...unrelated, `config.json.${LIVE_PID}.zz1.tmp`].sort(),
    );
    expect(readFileSync(file, 'utf8')).not.toContain('left-behind');
  });

  it('looks beside the file a symbolic link points to, where the writer puts them', async () => {
    const elsewhere = join(dir.path, 'dotfiles');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'plants.json'), '{}', { mode: 0o600 });
    symlinkSync(join(elsewhere, 'plants.json'), file);
    writeFileSync(join(elsewhere, `plants.json.${ENDED_PID}.abc.tmp`), 'token');
    (await openConfigStore(env())).set('default', 'token', 'abc');
    expect(readdirSync(elsewhere)).toEqual(['plants.json']);
  });

  it('removeAbandonedTemporaries removes them holding the lock, and says how many; with none, takes no lock', async () => {
    await configWithTokens();
    const store = await openConfigStore(env());
    leftover(ENDED_PID);
    leftover(ENDED_PID + 1);
    expect(store.removeAbandonedTemporaries()).toBe(2);
    expect(readdirSync(dir.path)).toEqual(['config.json']);
    // A live run's lock: taking it would wait; with nothing to remove, nothing waits.
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: LIVE_PID, host: hostname(), id: 'live-run' }));
    expect(store.removeAbandonedTemporaries()).toBe(0);
  });
});

describe('reads of the config file', () => {
  it('setToken says where the token was kept as the write found the file, not as this run opened it', async () => {
    await configWithTokens();
    const store = await openConfigStore(env());
    expect(store.storedToken('default')).toEqual({
      store: 'file',
      token: 'default-token',
      origin: 'https://plants.example.com',
    });
    // Another run (a login finishing while this one waits at its prompt) moves the token to the keyring.
    const other = await openConfigStore(env());
    other.setToken('default', { store: 'keyring', origin: 'https://plants.example.com' });
    expect(store.setToken('default', { store: 'file', token: 'new-token', origin: 'https://a.example' })).toEqual({
      store: 'keyring',
      origin: 'https://plants.example.com',
    });
    expect(store.storedToken('default')).toEqual({ store: 'file', token: 'new-token', origin: 'https://a.example' });
  });

  it('a run reads it once, however many questions it asks; a write makes the next question read it again', async () => {
    await configWithTokens();
    const store = await openConfigStore(env());
    const before = readFileSync(file, 'utf8');
    // Changed behind the store's back: the store keeps the file as it opened it.
    writeFileSync(file, before.replace('"default"', '"renamed"'));
    expect(store.profileNames()).toContain('default');
    expect(store.get('default', 'token')).toBeDefined();
    expect(store.storedToken('default')).toBeDefined();
    store.set('other', 'base-url', 'https://other.example');
    // The write read the file afresh (inside its lock): the rename is kept, and now seen.
    expect(store.profileNames()).toEqual(expect.arrayContaining(['other', 'renamed']));
    expect(store.profileNames()).not.toContain('default');
  });
});
