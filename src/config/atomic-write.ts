import nodeFs from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { processHasEnded } from '../shared/process-ended.js';

/** The file-system calls the writer makes; tests replace one to make it fail. */
export interface WriteFs {
  openSync(path: string, flags: string, mode?: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  fstatSync(fd: number): { size: number };
  fsyncSync(fd: number): void;
  fchownSync(fd: number, uid: number, gid: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
  statSync(path: string): { uid: number; gid: number };
  realpathSync(path: string): string;
  readlinkSync(path: string): string;
}

interface AtomicWriteOptions {
  /** Mode of a new file (before the umask). Default: 0o600. */
  mode?: number;
  /** Calls to use instead of node:fs's. Default: none. */
  fs?: Partial<WriteFs>;
}

/**
 * Replace `path` with `data`, all or nothing: write a temporary file in the
 * same directory, fsync it, check that it holds exactly `data`, rename it
 * over `path`, then fsync the directory where the platform allows. On any
 * failure the temporary file is removed, `path` is left as it was, and the
 * error is thrown. A symbolic link at `path` is kept: its target is replaced.
 *
 * Written here rather than left to conf's writer (atomically 2), which
 * ignores short writes: on a nearly full disk it renamed a truncated file
 * into place and reported success.
 */
export function writeFileAtomically(path: string, data: string, options: AtomicWriteOptions = {}): void {
  const fs: WriteFs = { ...nodeFs, ...options.fs };
  const bytes = Buffer.from(data, 'utf8');
  const target = realTarget(fs, path);
  // The pid tells a writer still at work from one that died (see removeAbandonedTemporaries).
  const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  // Exclusive: never write through something already at that name.
  let fd: number | undefined = fs.openSync(temporary, 'wx+', options.mode ?? 0o600);
  let renamed = false;
  try {
    keepOwner(fs, fd, target);
    writeAll(fs, fd, bytes);
    fs.fsyncSync(fd);
    checkContents(fs, fd, bytes);
    const open = fd;
    fd = undefined;
    // close can be where a network or quota-limited file system reports failure.
    fs.closeSync(open);
    fs.renameSync(temporary, target);
    renamed = true;
  } finally {
    if (!renamed) {
      if (fd !== undefined) ignoreErrors(() => fs.closeSync(fd!));
      ignoreErrors(() => fs.unlinkSync(temporary));
    }
  }
  syncDirectory(fs, dirname(target));
}

/** A temporary file older than this was abandoned, whatever its pid says: pids are reused. */
const ABANDONED_TEMPORARY_MS = 10_000;

/**
 * The temporary files of writeFileAtomically for `path` that a writer left
 * behind when it was killed (kill -9, a power cut): they may hold a token.
 * Those of a process that has ended, those of this process (it is writing
 * none when it asks), and any older than ABANDONED_TEMPORARY_MS (its pid
 * may be another process's by now); a file of a live process is a write in
 * progress and is not one of them.
 */
export function abandonedTemporaries(path: string): string[] {
  const target = realTarget(nodeFs, path);
  const dir = dirname(target);
  const prefix = `${basename(target)}.`;
  let names: string[];
  try {
    names = nodeFs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[0-9a-z]+\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined) return [];
    const file = join(dir, name);
    let abandoned = false;
    ignoreErrors(() => {
      abandoned =
        Number(pid) === process.pid ||
        processHasEnded(Number(pid)) ||
        Date.now() - nodeFs.lstatSync(file).mtimeMs > ABANDONED_TEMPORARY_MS;
    });
    return abandoned ? [file] : [];
  });
}

/** Remove abandonedTemporaries(path), holding the file's lock; best effort: how many were removed. */
export function removeAbandonedTemporaries(path: string): number {
  let removed = 0;
  for (const file of abandonedTemporaries(path)) {
    ignoreErrors(() => {
      nodeFs.unlinkSync(file);
      removed++;
    });
  }
  return removed;
}

/** Write every byte, or throw: a short write is how a full disk first shows. */
function writeAll(fs: WriteFs, fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = fs.writeSync(fd, bytes, offset, bytes.length - offset, offset);
    if (!(written > 0)) throw new Error(`only ${offset} of ${bytes.length} bytes could be written`);
    offset += written;
  }
}

/** The file's size, and its bytes read back, must be exactly what was meant. */
function checkContents(fs: WriteFs, fd: number, bytes: Buffer): void {
  const size = fs.fstatSync(fd).size;
  if (size !== bytes.length) throw new Error(`the file written holds ${size} bytes instead of ${bytes.length}`);
  const back = Buffer.alloc(bytes.length);
  let got = 0;
  while (got < bytes.length) {
    const read = fs.readSync(fd, back, got, bytes.length - got, got);
    if (!(read > 0)) break;
    got += read;
  }
  if (got !== bytes.length || !back.equals(bytes)) {
    throw new Error('the file written does not read back as what was written');
  }
}

/** Links followed before a chain is taken for a loop, as Linux's own limit (ELOOP). */
const MAX_LINKS = 40;

/**
 * Where a symbolic link points, so the link itself survives; the path
 * itself when nothing is there yet. A link to nothing (a dotfiles link made
 * before its file) is followed too: the file is made where it points, and
 * the link kept, as a shell's `>` would.
 */
function realTarget(fs: WriteFs, path: string): string {
  try {
    return fs.realpathSync(path);
  } catch {
    let target = path;
    for (let links = 0; links < MAX_LINKS; links += 1) {
      let link: string;
      try {
        link = fs.readlinkSync(target);
      } catch {
        return target; // Not a link (nothing there): the file is made here.
      }
      target = resolve(dirname(target), link);
    }
    return path; // A loop: renaming over the link fails or replaces it, as before.
  }
}

/** Root (sudo) changing someone's file leaves it theirs, as conf's writer did. */
function keepOwner(fs: WriteFs, fd: number, target: string): void {
  if (!process.geteuid || !process.getegid) return;
  let owner: { uid: number; gid: number };
  try {
    owner = fs.statSync(target);
  } catch {
    return; // No file yet: the new one is the current user's.
  }
  if (owner.uid === process.geteuid() && owner.gid === process.getegid()) return;
  // Only root may give a file away; anyone else's new file is simply theirs.
  ignoreErrors(() => fs.fchownSync(fd, owner.uid, owner.gid));
}

/** Make the rename itself durable. Not possible everywhere (Windows cannot open a directory): best effort. */
function syncDirectory(fs: WriteFs, dir: string): void {
  ignoreErrors(() => {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  });
}

function ignoreErrors(action: () => void): void {
  try {
    action();
  } catch {
    // Cleanup or best effort: the outcome is already decided.
  }
}
