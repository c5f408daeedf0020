import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createIOStreams, writeAll, writeOut } from '../../src/output/iostreams.js';
import { failure, info, success, warning } from '../../src/output/messages.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { fakeIO } from '../helpers/io.js';

const TOKEN = 'TOP+SECRET/abc=def==';

afterEach(forgetSecrets);

/** A stream that records each write as it was given. */
function recorder() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.toString());
      callback();
    },
  });
  return { stream, writes };
}

function streams() {
  const [stdout, stderr] = [recorder(), recorder()];
  const now: string[] = [];
  const io = createIOStreams(
    { stdin: process.stdin, stdout: stdout.stream, stderr: stderr.stream },
    { stdin: false, stdout: false, stderr: false },
    { stdout: false, stderr: false },
    (_stream, text) => void now.push(text),
  );
  return { io, stdout: stdout.writes, stderr: stderr.writes, now };
}

describe('the stdout and stderr writers', () => {
  it('mask a registered token in every write, in every form, whoever writes', async () => {
    registerSecret(TOKEN);
    const { io, stdout, stderr, now } = streams();
    io.stdout.write(`plain ${TOKEN}\n`);
    io.stderr.write(`percent ${encodeURIComponent(TOKEN)}\n`);
    io.write('stderr', `base64 ${Buffer.from(TOKEN).toString('base64')}\n`);
    io.writeNow('stdout', `spaced ${TOKEN.split('').join(' ')}\n`);
    await writeOut(io.stdout, `json ${JSON.stringify({ t: TOKEN })}\n`);
    expect(stdout).toEqual(['plain ***\n', 'json {"t":"***"}\n']);
    expect(stderr).toEqual(['percent ***\n', 'base64 ***=\n']);
    expect(now).toEqual(['spaced ***\n']);
  });

  it('mask the messages and the JSON error line', () => {
    registerSecret(TOKEN);
    const fake = fakeIO({ tty: true });
    success(fake.io, `stored ${TOKEN}`);
    warning(fake.io, `Bearer ${TOKEN} refused`);
    failure(fake.io, `no: ${TOKEN}`);
    info(fake.io, TOKEN);
    fake.io.stderr.write(`${JSON.stringify({ error: { message: `token ${TOKEN}` } })}\n`);
    expect(fake.stderr()).toBe(
      '✓ stored ***\nplants: warning: Bearer *** refused\nplants: no: ***\n***\n{"error":{"message":"token ***"}}\n',
    );
  });

  it('mask each write of a message written in two, and a token cut between pieces gathered by writeAll', async () => {
    registerSecret(TOKEN);
    const { io, stderr, stdout } = streams();
    io.stderr.write(`plants: ${TOKEN} was `);
    io.stderr.write(`refused (${TOKEN})\n`);
    await writeAll(io.stdout, [`a ${TOKEN.slice(0, 7)}`, `${TOKEN.slice(7)} b\n`]);
    expect(stderr).toEqual(['plants: *** was ', 'refused (***)\n']);
    expect(stdout).toEqual(['a *** b\n']);
  });

  it('leave text as it is when no secret is registered, or after they are forgotten', () => {
    const { io, stdout } = streams();
    io.stdout.write(`${TOKEN}\n`);
    registerSecret(TOKEN);
    forgetSecrets();
    io.stdout.write(`${TOKEN}\n`);
    expect(stdout).toEqual([`${TOKEN}\n`, `${TOKEN}\n`]);
  });

  it('pass bytes as they are, and text marked masked where it was read', async () => {
    registerSecret(TOKEN);
    const { io, stdout } = streams();
    await writeOut(io.stdout, Buffer.from(`${TOKEN}\n`));
    await writeOut(io.stdout, `${TOKEN}\n`, { masked: true });
    await writeOut(io.stdout, `${TOKEN}\n`, { masked: false });
    expect(stdout).toEqual([`${TOKEN}\n`, `${TOKEN}\n`, '***\n']);
  });

  it('wrap a stream once: its writes are masked once, by one wrapper', () => {
    registerSecret(TOKEN);
    const { io, stdout } = streams();
    const first = io.stdout;
    const { write } = first as unknown as Record<'write', unknown>;
    expect(io.stdout).toBe(first);
    expect((io.stdout as unknown as Record<'write', unknown>).write).toBe(write);
    io.stdout.write(`${TOKEN}`);
    expect(stdout).toEqual(['***']);
  });
});
