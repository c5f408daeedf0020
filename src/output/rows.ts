import { formatWriter, type OutputFormat, type RowView } from './format-writers.js';
import { readerGone, writeOut, type IOStreams } from './iostreams.js';

const FLUSH_AT = 64 * 1024;
/** A piece longer than this goes out on its own, in slices of this size: never gathered, nor converted whole. */
const SLICE = 1024 * 1024;
const FLUSH_AFTER_MS = 100;

/** Text written in large pieces, each waited for: output keeps pace with the reader. */
class Output {
  #buffer = '';
  #flushedAt = Date.now();
  constructor(private readonly io: IOStreams) {}

  /** Written when 64 K characters have gathered, or 100 ms have passed: a slow service's plants show as they come. */
  async add(text: string | readonly string[]): Promise<void> {
    if (typeof text !== 'string') {
      for (const piece of text) await this.add(piece);
      return;
    }
    if (text.length > SLICE) {
      await this.flush();
      // Slices of a flat string are views; each is converted to bytes alone, never
      // between the halves of a surrogate pair (each half alone would become U+FFFD).
      for (let at = 0; at < text.length && !readerGone(this.io.stdout);) {
        let end = Math.min(at + SLICE, text.length);
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
        await writeOut(this.io.stdout, text.slice(at, end));
        at = end;
      }
      return;
    }
    this.#buffer += text;
    if (this.#buffer.length >= FLUSH_AT || Date.now() - this.#flushedAt >= FLUSH_AFTER_MS) await this.flush();
  }

  async flush(): Promise<void> {
    this.#flushedAt = Date.now();
    if (!this.#buffer) return;
    const text = this.#buffer;
    this.#buffer = '';
    await writeOut(this.io.stdout, text);
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
  } finally {
    // On an error halfway, what was read and checked before it still reaches stdout.
    await out.flush();
  }
  // The list ended: an empty one is still a whole document (`[]`, the CSV header).
  if (count === 0) await out.add(encoder.opening);
  for await (const text of encoder.end(count)) await out.add(text);
  await out.flush();
  return count;
}
