/**
 * The D-Bus wire format (the D-Bus specification, "Message Protocol"), as
 * much of it as one method call needs: values marshalled by their type
 * signature, messages framed with their header. Written here rather than
 * taken from a package: completion reads a token from the Secret Service
 * with a few calls (src/config/secret-service.ts), and a D-Bus library would
 * be a dependency bigger than all of this. Little-endian out; either way in.
 */

/** A value by its signature: numbers, strings, booleans, arrays (structs and dict entries are arrays too), variants. */
export type DBusValue = number | bigint | string | boolean | DBusValue[] | Variant;

/** A variant: a value with its own signature. */
export interface Variant {
  signature: string;
  value: DBusValue;
}

const FIXED: Record<string, number> = { y: 1, b: 4, n: 2, q: 2, i: 4, u: 4, h: 4, x: 8, t: 8, d: 8 };

function alignment(code: string): number {
  if (code === 's' || code === 'o' || code === 'a') return 4;
  if (code === '(' || code === '{') return 8;
  if (code === 'g' || code === 'v') return 1;
  const size = FIXED[code];
  if (size === undefined) throw new Error(`unknown D-Bus type ${code}`);
  return size;
}

/** The complete types of a signature, each as its own signature (`a{ss}o` → `a{ss}`, `o`). */
export function splitSignature(signature: string): string[] {
  const types: string[] = [];
  let at = 0;
  while (at < signature.length) {
    const end = completeTypeEnd(signature, at);
    types.push(signature.slice(at, end));
    at = end;
  }
  return types;
}

function completeTypeEnd(signature: string, at: number): number {
  const code = signature[at];
  if (code === 'a') return completeTypeEnd(signature, at + 1);
  if (code === '(' || code === '{') {
    const close = code === '(' ? ')' : '}';
    let next = at + 1;
    while (signature[next] !== close) {
      if (next >= signature.length) throw new Error(`unbalanced D-Bus signature ${signature}`);
      next = completeTypeEnd(signature, next);
    }
    return next + 1;
  }
  if (code === undefined) throw new Error(`incomplete D-Bus signature ${signature}`);
  alignment(code);
  return at + 1;
}

/** Writes values in the wire format, little-endian, aligned from the start of the message. */
export class Writer {
  private chunks: Buffer[] = [];
  length = 0;

  private push(bytes: Buffer): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  align(to: number): void {
    const pad = (to - (this.length % to)) % to;
    if (pad > 0) this.push(Buffer.alloc(pad));
  }

  write(signature: string, values: DBusValue[]): this {
    const types = splitSignature(signature);
    if (types.length !== values.length) throw new Error(`${values.length} values for D-Bus signature ${signature}`);
    types.forEach((type, index) => this.writeOne(type, values[index]!));
    return this;
  }

  private writeOne(type: string, value: DBusValue): void {
    const code = type[0]!;
    this.align(alignment(code));
    if (code === 's' || code === 'o') {
      const text = Buffer.from(value as string, 'utf8');
      this.push(uint32(text.length));
      this.push(Buffer.concat([text, Buffer.alloc(1)]));
    } else if (code === 'g') {
      const text = Buffer.from(value as string, 'ascii');
      this.push(Buffer.concat([Buffer.from([text.length]), text, Buffer.alloc(1)]));
    } else if (code === 'v') {
      const variant = value as Variant;
      this.writeOne('g', variant.signature);
      this.writeOne(variant.signature, variant.value);
    } else if (code === 'a') {
      this.writeArray(type.slice(1), value as DBusValue[]);
    } else if (code === '(' || code === '{') {
      this.write(type.slice(1, -1), value as DBusValue[]);
    } else {
      this.push(fixed(code, value));
    }
  }

  private writeArray(element: string, items: DBusValue[]): void {
    const lengthAt = this.chunks.length;
    this.push(uint32(0));
    // The length counts the element bytes, not the padding before the first element.
    this.align(alignment(element[0]!));
    const start = this.length;
    for (const item of items) this.writeOne(element, item);
    this.chunks[lengthAt] = uint32(this.length - start);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}

function fixed(code: string, value: DBusValue): Buffer {
  const bytes = Buffer.alloc(FIXED[code]!);
  if (code === 'y') bytes.writeUInt8(Number(value));
  else if (code === 'b') bytes.writeUInt32LE(value ? 1 : 0);
  else if (code === 'n') bytes.writeInt16LE(Number(value));
  else if (code === 'q') bytes.writeUInt16LE(Number(value));
  else if (code === 'i') bytes.writeInt32LE(Number(value));
  else if (code === 'u' || code === 'h') bytes.writeUInt32LE(Number(value));
  else if (code === 'x') bytes.writeBigInt64LE(BigInt(value as number | bigint));
  else if (code === 't') bytes.writeBigUInt64LE(BigInt(value as number | bigint));
  else bytes.writeDoubleLE(Number(value));
  return bytes;
}

/** Reads values in the wire format from `bytes`, aligned from its start (the start of the message). */
export class Reader {
  constructor(
    private readonly bytes: Buffer,
    private readonly little: boolean,
    public offset = 0,
  ) {}

  align(to: number): void {
    this.offset += (to - (this.offset % to)) % to;
  }

  read(signature: string): DBusValue[] {
    return splitSignature(signature).map((type) => this.readOne(type));
  }

  private need(count: number): void {
    if (this.offset + count > this.bytes.length) throw new Error('D-Bus message ended early');
  }

  private u32(): number {
    this.need(4);
    const value = this.little ? this.bytes.readUInt32LE(this.offset) : this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  private text(length: number, encoding: BufferEncoding): string {
    this.need(length + 1);
    const value = this.bytes.toString(encoding, this.offset, this.offset + length);
    this.offset += length + 1;
    return value;
  }

  private readOne(type: string): DBusValue {
    const code = type[0]!;
    this.align(alignment(code));
    if (code === 's' || code === 'o') return this.text(this.u32(), 'utf8');
    if (code === 'g') {
      this.need(1);
      return this.text(this.bytes[this.offset++]!, 'ascii');
    }
    if (code === 'v') {
      const signature = this.readOne('g') as string;
      return { signature, value: this.readOne(signature) };
    }
    if (code === 'a') {
      const length = this.u32();
      this.align(alignment(type[1]!));
      const end = this.offset + length;
      this.need(length);
      const items: DBusValue[] = [];
      while (this.offset < end) items.push(this.readOne(type.slice(1)));
      return items;
    }
    if (code === '(' || code === '{') return this.read(type.slice(1, -1));
    return this.fixed(code);
  }

  private fixed(code: string): DBusValue {
    const size = FIXED[code]!;
    this.need(size);
    const at = this.offset;
    this.offset += size;
    const b = this.bytes;
    const le = this.little;
    if (code === 'y') return b.readUInt8(at);
    if (code === 'b') return (le ? b.readUInt32LE(at) : b.readUInt32BE(at)) !== 0;
    if (code === 'n') return le ? b.readInt16LE(at) : b.readInt16BE(at);
    if (code === 'q') return le ? b.readUInt16LE(at) : b.readUInt16BE(at);
    if (code === 'i') return le ? b.readInt32LE(at) : b.readInt32BE(at);
    if (code === 'u' || code === 'h') return le ? b.readUInt32LE(at) : b.readUInt32BE(at);
    if (code === 'x') return le ? b.readBigInt64LE(at) : b.readBigInt64BE(at);
    if (code === 't') return le ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at);
    return le ? b.readDoubleLE(at) : b.readDoubleBE(at);
  }
}
