import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';

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

/** Where a symbolic link points, so the link itself survives; the path itself when nothing is there yet. */
function realTarget(fs: WriteFs, path: string): string {
  try {
    return fs.realpathSync(path);
  } catch {
    return path;
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
