import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Random bytes and UUIDs without Node's crypto module. A short run needs a
 * few (a request id, the journal's run id, a lock's owner, the marker of
 * exact numbers), and loading node:crypto or Web Crypto's global for them
 * costs about 4.5 ms, a sixth of `node -e 0` (`npm run bench`). On Linux and
 * macOS they are read from the kernel's generator (/dev/urandom, the one
 * getrandom() and OpenSSL draw on), a pool at a time; elsewhere (Windows),
 * or when it cannot be read as a character device, from Web Crypto.
 */

const POOL_SIZE = 512;
let pool: Uint8Array | undefined;
let used = POOL_SIZE;

/** Fills `into` from /dev/urandom; false when it is missing, not a device, or reads short. */
function fromKernel(into: Uint8Array): boolean {
  if (process.platform === 'win32') return false;
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    if (!fstatSync(fd).isCharacterDevice()) return false;
    let filled = 0;
    while (filled < into.length) {
      const read = readSync(fd, into, filled, into.length - filled, null);
      if (read <= 0) return false;
      filled += read;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // Nothing was written through it.
      }
    }
  }
}

/** `size` fresh random bytes (at most the pool's size), never handed out twice. */
export function randomBytes(size: number): Uint8Array {
  if (!Number.isInteger(size) || size < 0 || size > POOL_SIZE) {
    throw new RangeError(`randomBytes: size ${size} is not a whole number from 0 to ${POOL_SIZE}`);
  }
  if (pool === undefined || used + size > POOL_SIZE) {
    const fresh = new Uint8Array(POOL_SIZE);
    if (!fromKernel(fresh)) globalThis.crypto.getRandomValues(fresh);
    pool = fresh;
    used = 0;
  }
  const bytes = pool.slice(used, used + size);
  used += size;
  return bytes;
}

/** A random (version 4) UUID, as crypto.randomUUID() writes one: lower-case hex, 8-4-4-4-12. */
export function randomUUID(): string {
  const bytes = randomBytes(16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
