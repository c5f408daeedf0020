import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContext, idleAgent } from '../../src/context.js';
import { waitFor } from '../helpers/cli.js';
import { fakeIO } from '../helpers/io.js';
import { listenOnLoopback, TOKEN } from '../helpers/servers.js';

/** A server answering `[]`, or holding the answer while `hold` is set; it keeps each connection it saw, and which have closed. */
async function server() {
  const sockets: Socket[] = [];
  const closed = new Set<Socket>();
  const held: ServerResponse[] = [];
  const state = { hold: false };
  const http = createServer((req, res) => {
    if (!sockets.includes(req.socket)) {
      sockets.push(req.socket);
      req.socket.on('close', () => closed.add(req.socket));
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    if (state.hold) held.push(res);
    else res.end('[]');
  });
  return { ...(await listenOnLoopback(http)), sockets, closed, held, state };
}

let running: Awaited<ReturnType<typeof server>> | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const contextFor = (url: string) =>
  createContext({ io: fakeIO().io, env: { PLANTS_BASE_URL: url, PLANTS_TOKEN: TOKEN, PLANTS_RETRIES: '0' } });

describe('closing at the end of a run (src/context.ts): idle connections are left to the exiting process', () => {
  it('idleAgent: an agent with nothing in flight is idle, one waiting on an answer is not, nor anything without stats', async () => {
    running = await server();
    running.state.hold = true;
    const agent = new Agent();
    try {
      expect(idleAgent(agent)).toBe(true);
      const request = agent.request({ origin: running.url, path: '/plants', method: 'GET' });
      const held = running.held;
      await waitFor(() => held.length === 1, 'the request to reach the server');
      expect(idleAgent(agent)).toBe(false);
      held[0]!.end('[]');
      await (await request).body.text();
      expect(idleAgent(agent)).toBe(true);
      expect(idleAgent({} as Dispatcher)).toBe(false);
      expect(idleAgent({ stats: { 'http://x': {} } } as unknown as Dispatcher)).toBe(false);
    } finally {
      await agent.destroy();
    }
  });

  it('close({ exiting: true }) leaves an idle agent to the exiting process; close() destroys it', async () => {
    running = await server();
    const destroy = vi.spyOn(Agent.prototype, 'destroy');
    try {
      const ctx = contextFor(running.url);
      await (await ctx.client()).listPlants();
      await ctx.close({ exiting: true });
      expect(destroy).not.toHaveBeenCalled();
      expect(running.closed.size).toBe(0);
      await ctx.close();
      expect(destroy).toHaveBeenCalled();
      const { closed, sockets } = running;
      await waitFor(() => closed.has(sockets[0]!), 'the connection to close');
    } finally {
      destroy.mockRestore();
    }
  });

  it('close({ exiting: true }) closes a connection still waiting on an answer, and the request fails', async () => {
    running = await server();
    running.state.hold = true;
    const ctx = contextFor(running.url);
    const list = (await ctx.client()).listPlants();
    const outcome = list.then(
      () => 'answered',
      () => 'failed',
    );
    const { held, closed, sockets } = running;
    await waitFor(() => held.length === 1, 'the request to reach the server');
    await ctx.close({ exiting: true });
    await waitFor(() => closed.has(sockets[0]!), 'the connection to close');
    expect(await outcome).toBe('failed');
  });
});
