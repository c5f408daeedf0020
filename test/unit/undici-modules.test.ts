import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// src/vendor/undici.ts imports undici's own modules, which are not its
// public API: an undici release may move or change them. This pins each
// path it uses, and what it uses from each, to what undici's index gives.

const require = createRequire(join(ROOT, 'package.json'));
const undici = require('undici') as typeof import('undici');

/** Each internal module src/vendor/undici.ts imports, and what it must be. */
const PINNED: Record<string, (exports: unknown) => void> = {
  'undici/lib/dispatcher/agent.js': (exports) => expect(exports).toBe(undici.Agent),
  'undici/lib/dispatcher/dispatcher.js': (exports) => expect(exports).toBe(undici.Dispatcher),
  // The index gives every dispatcher these methods by assigning this object to
  // Dispatcher.prototype, as src/vendor/undici.ts does.
  'undici/lib/api/index.js': (exports) => {
    const api = exports as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['connect', 'pipeline', 'request', 'stream', 'upgrade']);
    for (const [name, method] of Object.entries(api)) {
      // Compared by identity, never called: no `this` to lose.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      expect(undici.Dispatcher.prototype[name as keyof typeof undici.Dispatcher.prototype], name).toBe(method);
    }
  },
  'undici/lib/dispatcher/env-http-proxy-agent.js': (exports) => expect(exports).toBe(undici.EnvHttpProxyAgent),
};

describe("undici's own modules", () => {
  it('src/vendor/undici.ts imports only the pinned ones', () => {
    const source = readFileSync(join(ROOT, 'src', 'vendor', 'undici.ts'), 'utf8');
    const used = [...source.matchAll(/['"](undici\/[^'"]+)['"]/g)].map((match) => match[1]);
    expect([...new Set(used)].sort()).toEqual(Object.keys(PINNED).sort());
  });

  for (const [path, check] of Object.entries(PINNED)) {
    it(`${path} is what undici's index gives`, () => {
      check(require(path));
    });
  }

  it('the agent it builds sends requests with request()', () => {
    const Agent = require('undici/lib/dispatcher/agent.js') as typeof undici.Agent;
    const agent = new Agent({ connect: { timeout: 1000 }, maxHeaderSize: 16 * 1024 });
    expect(typeof agent.request).toBe('function');
    return agent.close();
  });
});
