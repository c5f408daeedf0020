import { constants, openSync, readFileSync } from 'node:fs';

/**
 * A pipe's bytes, to its end (`<(zcat run.jsonl.gz)`, a FIFO, waiting for a
 * writer). Not with readFile: a read blocked in libuv's thread pool holds
 * the process past Ctrl-C or SIGTERM (its exit waits for the read) while the
 * command behind the pipe takes its time (a download, a password prompt),
 * so the pipe is read as the event loop's, without blocking.
 */
export async function readPipe(file: string): Promise<Buffer> {
  const { O_RDONLY, O_NONBLOCK } = constants;
  if (O_NONBLOCK === undefined) return readFileSync(file);
  const fd = openSync(file, O_RDONLY | O_NONBLOCK);
  // A built-in, as the bundles load them; loaded only for a pipe.
  const { Socket } = process.getBuiltinModule('node:net');
  const chunks: Buffer[] = [];
  for await (const chunk of new Socket({ fd, readable: true, writable: false })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
