import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAZY_ASSERT, LAZY_BUILTINS } from '../../build/start-up.js';
import { ConnectionWatch } from '../../src/http/connection-watch.js';
import { ROOT } from '../helpers/cli.js';
import { runCommand } from '../helpers/command.js';

// What this CLI takes from undici beyond its public API, which an undici
// release may move or change: the modules src/vendor/undici.ts imports
// (pinned to what undici's index gives), the methods of the handler its
// request() makes (which src/http/connection-watch.ts passes on), and what
// undici reads from the built-in modules the build answers with stand-ins
// (build/start-up.ts).
// Each failure names the undici version installed and the piece missing,
// so that an upgrade is a one-line change or a clear failure.

const require = createRequire(join(ROOT, 'package.json'));
const undici = require('undici') as typeof import('undici');
const { version: UNDICI_VERSION } = JSON.parse(
  readFileSync(join(ROOT, 'node_modules', 'undici', 'package.json'), 'utf8'),
) as { version: string };

/** A failure message, naming the undici version it is about. */
const inUndici = (what: string) => `undici ${UNDICI_VERSION}: ${what}`;

/** undici's module at `path`, or a failure saying it is gone. */
function undiciModule(path: string): unknown {
  try {
    return require(path);
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0];
    throw new Error(inUndici(`has no ${path}, which src/vendor/undici.ts imports (${reason})`), { cause: err });
  }
}

/**
 * Each internal module src/vendor/undici.ts imports, and what it must be. In
 * this order: test/helpers/undici-builtin-reads.cjs takes the agent's, the
 * dispatcher's and request()'s first.
 */
const PINNED: Record<string, (exports: unknown) => void> = {
  'undici/lib/dispatcher/agent.js': (exports) =>
    expect(exports, inUndici('lib/dispatcher/agent.js is not its Agent')).toBe(undici.Agent),
  'undici/lib/dispatcher/dispatcher.js': (exports) =>
    expect(exports, inUndici('lib/dispatcher/dispatcher.js is not its Dispatcher')).toBe(undici.Dispatcher),
  // The index gives every dispatcher request() and connect() by assigning these modules'
  // exports to Dispatcher.prototype (lib/api/index.js), as src/vendor/undici.ts does.
  'undici/lib/api/api-request.js': (exports) => expectDispatcherMethod('request', exports),
  'undici/lib/api/api-connect.js': (exports) => expectDispatcherMethod('connect', exports),
  'undici/lib/dispatcher/env-http-proxy-agent.js': (exports) =>
    expect(exports, inUndici('lib/dispatcher/env-http-proxy-agent.js is not its EnvHttpProxyAgent')).toBe(
      undici.EnvHttpProxyAgent,
    ),
};

/** `exports` is lib/api/index.js's `name`, which undici's index gives every dispatcher. */
function expectDispatcherMethod(name: string, exports: unknown): void {
  const api = undiciModule('undici/lib/api/index.js') as Record<string, unknown>;
  expect(api[name], inUndici(`lib/api/index.js's ${name} is not lib/api/api-${name}.js`)).toBe(exports);
  // Compared by identity, never called: no `this` to lose.
  const given: unknown = Reflect.get(undici.Dispatcher.prototype, name);
  expect(given, inUndici(`a dispatcher's ${name}() is not lib/api/api-${name}.js`)).toBe(exports);
}

/** The module paths quoted in a source file. */
function undiciPaths(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...new Set([...source.matchAll(/['"](undici\/[^'"]+)['"]/g)].map((match) => match[1]!))].sort();
}

describe("undici's own modules", () => {
  it('src/vendor/undici.ts imports only the pinned ones', () => {
    expect(undiciPaths('src/vendor/undici.ts')).toEqual(Object.keys(PINNED).sort());
  });

  it('src/types/undici-lib.d.ts declares each of them', () => {
    expect(undiciPaths('src/types/undici-lib.d.ts')).toEqual(Object.keys(PINNED).sort());
  });

  for (const [path, check] of Object.entries(PINNED)) {
    it(`${path} is what undici's index gives`, () => {
      check(undiciModule(path));
    });
  }

  it('the agent it builds sends requests with request()', () => {
    const Agent = undiciModule('undici/lib/dispatcher/agent.js') as typeof undici.Agent;
    const agent = new Agent({ connect: { timeout: 1000 }, maxHeaderSize: 16 * 1024 });
    expect(typeof agent.request).toBe('function');
    return agent.close();
  });
});

describe("undici's request handler", () => {
  it('ConnectionWatch (src/http/connection-watch.ts) passes on every method it has', () => {
    // The handler request() makes, as a dispatcher receives it (the one src/http/attempt.ts wraps).
    const request = undiciModule('undici/lib/api/api-request.js') as (options: object) => Promise<unknown>;
    let handler: object | undefined;
    const capture = {
      dispatch: (_options: unknown, received: object) => {
        handler = received;
        return true;
      },
    };
    void request.call(capture, { origin: 'http://127.0.0.1:9', path: '/', method: 'GET' });
    const methods = new Set<string>();
    let proto = Object.getPrototypeOf(handler) as object | null;
    for (; proto; proto = Object.getPrototypeOf(proto) as object | null) {
      for (const name of Object.getOwnPropertyNames(proto)) if (/^on[A-Z]/.test(name)) methods.add(name);
    }
    expect([...methods], inUndici("request()'s handler has no onRequestStart")).toContain('onRequestStart');
    const forwarded = new Set(Object.getOwnPropertyNames(ConnectionWatch.prototype));
    const missing = [...methods].filter((name) => !forwarded.has(name));
    expect(
      missing,
      inUndici(
        `request()'s handler has ${missing.join(', ')}, which ConnectionWatch (src/http/connection-watch.ts) ` +
          'does not pass on',
      ),
    ).toEqual([]);
  });
});

describe('what undici reads from the built-in modules the build stands in for (build/start-up.ts)', () => {
  const standIns = LAZY_BUILTINS.filter((entry) => entry.importer === '/node_modules/undici/');
  /** Module name → the property paths undici read from it, loading the pinned modules and sending one request. */
  let reads: Record<string, string[] | undefined>;

  beforeAll(() => {
    const modules = [...standIns.map((entry) => entry.module), 'node:assert'];
    let output: string;
    try {
      output = runCommand(
        process.execPath,
        [join(ROOT, 'test', 'helpers', 'undici-builtin-reads.cjs'), ...Object.keys(PINNED)],
        { cwd: ROOT, env: { ...process.env, PLANTS_STAND_INS: modules.join(',') } },
      );
    } catch (err) {
      const failure = (err as Error).message;
      throw new Error(inUndici(`the modules src/vendor/undici.ts imports did not load or send a request: ${failure}`), {
        cause: err,
      });
    }
    reads = JSON.parse(output) as typeof reads;
  });

  it('stands in for node:http2 and node:http', () => {
    expect(standIns.map((entry) => entry.module).sort()).toEqual(['node:http', 'node:http2']);
  });

  for (const { module, known = '{}' } of standIns) {
    it(`${module}: each value undici reads is one its stand-in knows, so that a list does not load it`, () => {
      const paths = reads[module];
      expect(paths, inUndici(`no longer loads ${module}: its stand-in in build/start-up.ts can go`)).toBeDefined();
      // The stand-in's known answers, as the build writes them into the bundle.
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      const answers = (new Function(`return (${known});`) as () => object)();
      const missing = paths!.filter((path) => !knows(answers, path));
      expect(
        missing,
        inUndici(
          `reads ${missing.join(', ')} from ${module}, which its stand-in (LAZY_BUILTINS in build/start-up.ts) ` +
            `does not know, so every list loads ${module}; add ${missing.length > 1 ? 'them' : 'it'} there`,
        ),
      ).toEqual([]);
    });
  }

  it("node:assert: only called as assert(value, message), which LAZY_ASSERT's stand-in answers", () => {
    expect(LAZY_ASSERT.importer).toBe('/node_modules/undici/');
    const paths = reads['node:assert'];
    expect(paths, inUndici('no longer loads node:assert: LAZY_ASSERT in build/start-up.ts can go')).toBeDefined();
    expect(
      paths,
      inUndici(
        `uses ${paths!.map((path) => `assert.${path}`).join(', ')} on load or in a request, for which ` +
          "LAZY_ASSERT's stand-in (build/start-up.ts) loads node:assert",
      ),
    ).toEqual([]);
  });
});

/** Whether a stand-in with these known answers answers `path` (`constants.NGHTTP2_NO_ERROR`) itself. */
function knows(answers: object, path: string): boolean {
  let value: unknown = answers;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !(key in value)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return true;
}
