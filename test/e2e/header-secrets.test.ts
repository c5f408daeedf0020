import { describe, expect, it } from 'vitest';
import { againstRawServer } from '../helpers/against-store.js';

/** An API key given with -H, which a service echoes in its body, a header and an error. */
const KEY = 'api-key-5f3c9a7e21d84b06';

const setup = againstRawServer((req, res) => {
  const key = String(req.headers['x-api-key'] ?? '');
  if (req.url === '/fails') {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`no such key: ${key}`);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-echo': key }).end(JSON.stringify({ key }));
});

describe('plants api -H with a secret header', () => {
  it('masks the value a service echoes, on stdout and stderr', async () => {
    const shown = await setup.plants(['api', '-i', '-H', `X-Api-Key: ${KEY}`, '/echo']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('"key":"***"');
    expect(shown.stdout).toMatch(/x-echo: \*\*\*/i);
    expect(shown.stdout + shown.stderr).not.toContain(KEY);

    const failed = await setup.plants(['api', '-H', `X-Api-Key: ${KEY}`, '/fails']);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stdout).toContain('no such key: ***');
    expect(failed.stdout + failed.stderr).not.toContain(KEY);
  });
});
