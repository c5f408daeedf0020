import { formatWriter, type OutputFormat } from './format-writers.js';
import type { RowView, TextPieces } from './row-encoder.js';
import { readerGone, writeOut, type IOStreams } from './iostreams.js';
import { LARGE_TEXT, slicesOf } from '../shared/large-values.js';
import { CliError, InterruptedError, OutputError } from '../shared/errors.js';

const FLUSH_AT = 64 * 1024;
const FLUSH_AFTER_MS = 100;

/**
 * Text written in large pieces, each waited for: output keeps pace with the
 * reader. Rows are masked where they are read (see writeOut's `masked`).
 */
class Output {
  #buffer = '';
  /** Whether any text has gone to stdout. */
  wrote = false;
  #flushedAt = Date.now();
  /** Where each slice of a large piece is made bytes, one after the other (see #bytes). */
  #scratch: Buffer | undefined;
  constructor(private readonly io: IOStreams) {}

  /** Written when 64 K characters have gathered, or 100 ms have passed: a slow service's plants show as they come. */
  async add(text: TextPieces): Promise<void> {
    if (typeof text !== 'string') {
      // Pieces may be made as they are read: once the reader has gone, none is made.
      for (const piece of text) {
        if (readerGone(this.io.stdout)) return;
        await this.add(piece);
      }
      return;
    }
    if (text.length >= FLUSH_AT) {
      // A large piece goes out alone, slice by slice: never gathered, nor converted whole.
      await this.flush();
      for (const slice of slicesOf(text)) {
        if (readerGone(this.io.stdout)) break;
        this.wrote = true;
        await writeOut(this.io.stdout, this.#bytes(slice), { masked: true });
      }
      return;
    }
    this.#buffer += text;
    if (this.#buffer.length >= FLUSH_AT || Date.now() - this.#flushedAt >= FLUSH_AFTER_MS) await this.flush();
  }

  /**
   * A slice as bytes in the same buffer each time, when stdout writes to a
   * file descriptor (a file, pipe or terminal), which is done with them once
   * it calls back. A stream made of a string would have made a new buffer of
   * each (those of a file stream are only freed by a garbage collection, and
   * 400 1 MiB buffers could wait for one). A stream in the process (a test's)
   * may keep what it is given: it gets the string.
   */
  #bytes(slice: string): string | Buffer {
    if (typeof (this.io.stdout as { fd?: unknown }).fd !== 'number') return slice;
    // UTF-8 takes at most 3 bytes a UTF-16 code unit; a slice is whole code points (slicesOf).
    this.#scratch ??= Buffer.allocUnsafe(3 * LARGE_TEXT);
    return this.#scratch.subarray(0, this.#scratch.write(slice, 'utf8'));
  }

  async flush(): Promise<void> {
    this.#flushedAt = Date.now();
    if (!this.#buffer) return;
    const text = this.#buffer;
    this.#buffer = '';
    this.wrote = true;
    await writeOut(this.io.stdout, text, { masked: true });
  }
}

/**
 * Write rows to stdout in `format` as they come, batch by batch: every
 * format but the table (which needs every row to size its columns) holds
 * one batch at a time. Returns how many were written.
 */
export async function writeRows<T>(
  io: IOStreams,
  format: OutputFormat,
  view: RowView<T>,
  batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  /** What a row is, for the error line of a list broken off halfway. */
  item = 'row',
): Promise<number> {
  const writer = formatWriter(format);
  const encoder = writer.encoder(view, {
    terminal: io.stdoutIsTTY,
    color: () => io.colorEnabled('stdout'),
    width: () => (writer.fitted ? io.terminalWidth('stdout') : undefined),
  });
  const out = new Output(io);
  let count = 0;
  // Nothing reaches stdout before the first rows have arrived and been checked
  // (or the list has ended): a run that fails early leaves no half-made JSON or
  // bare CSV header behind.
  try {
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      const text = encoder.rows(batch);
      if (count === 0) await out.add(encoder.opening);
      await out.add(text);
      count += batch.length;
      // The reader went away (`| head`): stop, which also stops reading the response.
      if (readerGone(io.stdout)) break;
    }
  } catch (error) {
    // On an error halfway, what was read and checked before it still reaches stdout,
    // and the error line says that output is not the whole list.
    await out.flush();
    if (
      out.wrote &&
      error instanceof CliError &&
      !(error instanceof OutputError || error instanceof InterruptedError)
    ) {
      const written =
        count === 1
          ? `the ${item} written to standard output before it is`
          : `the ${count} ${item}s written to standard output before it are`;
      error.message += `; ${written} not the whole list`;
    }
    throw error;
  }
  await out.flush();
  // The list ended: an empty one is still a whole document (`[]`, the CSV header).
  if (count === 0) await out.add(encoder.opening);
  for await (const text of encoder.end(count)) {
    // The reader went away: the rest of a table is not made.
    if (readerGone(io.stdout)) break;
    await out.add(text);
  }
  await out.flush();
  return count;
}
