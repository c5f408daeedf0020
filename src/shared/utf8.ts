/**
 * Where UTF-8 goes wrong, so it can be said rather than quietly shown as
 * U+FFFD. Fed piece by piece: a sequence cut between pieces waits for its
 * rest, and is bad only if the input ends first. Each piece is checked by
 * Node's native isUtf8; only a bad one is scanned here for the offset.
 */
export class Utf8Checker {
  /** Bytes of the input before the current piece. */
  #offset = 0;
  /** The start of a sequence cut at the end of the last piece. */
  #carry: Uint8Array = new Uint8Array(0);
  /** The offset of the first bad byte (the start of the first bad sequence), once found. */
  firstBad: number | undefined;

  /** Check the next piece; returns firstBad (undefined while all is well). */
  push(bytes: Uint8Array): number | undefined {
    if (this.firstBad !== undefined) return this.firstBad;
    // Where this input starts: the carried bytes, before the piece.
    const start = this.#offset - this.#carry.length;
    const input = this.#carry.length > 0 ? Buffer.concat([this.#carry, bytes]) : bytes;
    const cut = incompleteTail(input);
    const whole = input.subarray(0, cut);
    if (!process.getBuiltinModule('node:buffer').isUtf8(whole)) {
      this.firstBad = start + firstInvalidByte(whole);
      return this.firstBad;
    }
    this.#carry = Uint8Array.prototype.slice.call(input, cut);
    this.#offset += bytes.length;
    return undefined;
  }

  /** The input ended: a sequence left unfinished is bad too. */
  end(): number | undefined {
    if (this.firstBad === undefined && this.#carry.length > 0) this.firstBad = this.#offset - this.#carry.length;
    return this.firstBad;
  }
}

/** Where a sequence that the piece's last bytes begin but do not finish starts; the length when there is none. */
export function incompleteTail(bytes: Uint8Array): number {
  for (let k = bytes.length - 1; k >= Math.max(0, bytes.length - 3); k -= 1) {
    const byte = bytes[k]!;
    if (byte < 0x80) break;
    if (byte >= 0xc0) return bytes.length - k < sequenceLength(byte) ? k : bytes.length;
  }
  return bytes.length;
}

function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
}

/**
 * The index of the first byte that starts a sequence RFC 3629 forbids (a
 * stray continuation byte, an overlong form, a surrogate, past U+10FFFF, or
 * cut short); the length when there is none.
 */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte < 0x80) {
      i += 1;
      continue;
    }
    const length = validLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return bytes.length;
}

/** The length of the valid sequence a lead byte (0x80 or more) at `i` starts, or 0 when it starts none. */
export function validLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  let needed: number;
  let [low, high] = [0x80, 0xbf];
  if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    needed = 2;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    needed = 3;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  for (let k = 1; k <= needed; k += 1) {
    const next = bytes[i + k];
    if (next === undefined || next < low || next > high) return 0;
    [low, high] = [0x80, 0xbf];
  }
  return needed + 1;
}
