import { afterEach, describe, expect, it } from 'vitest';
import type { Dispatcher } from 'undici';
import { connectTimeoutMs, httpTransport, isLoopback, proxyVariable } from '../../src/http/transport.js';
import { ConfigError } from '../../src/shared/errors.js';
import { Agent, envHttpProxyAgent } from '../../src/vendor/undici.js';
import { VERSION } from '../../src/shared/version.js';

describe('isLoopback', () => {
  it.each([
    'http://localhost:8080',
    'http://LOCALHOST',
    'http://127.0.0.1:3000',
    'http://127.255.0.9',
    'http://127.1', // WHATWG URL: 127.0.0.1
    'http://0x7f.1', // likewise
    'http://0.0.0.0',
    'http://0', // 0.0.0.0
    'http://[::1]:8080',
    'http://[0:0:0:0:0:0:0:1]', // [::1]
    'http://[::]',
    'http://[::ffff:127.0.0.1]', // [::ffff:7f00:1]
    'http://[::ffff:7fff:ffff]',
  ])('%s is the machine itself', (raw) => {
    expect(isLoopback(new URL(raw).hostname)).toBe(true);
  });

  it.each([
    'http://plants.example.com',
    'http://localhost.example.com',
    'http://127.0.0.1.nip.io',
    'http://128.0.0.1',
    'http://10.0.0.1',
    'http://[::2]',
    'http://[::ffff:10.0.0.1]',
    'http://[fe80::1]',
  ])('%s is not', (raw) => {
    expect(isLoopback(new URL(raw).hostname)).toBe(false);
  });
});

describe('proxyVariable', () => {
  const https = new URL('https://plants.example.com/api');
  const http = new URL('http://plants.example.com');

  it('names the variable for the scheme, the lower-case one first', () => {
    expect(proxyVariable(https, { HTTPS_PROXY: 'http://proxy:3128' })).toBe('HTTPS_PROXY');
    expect(proxyVariable(https, { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' })).toBe('https_proxy');
    expect(proxyVariable(http, { HTTP_PROXY: 'http://proxy:3128' })).toBe('HTTP_PROXY');
    expect(proxyVariable(http, { http_proxy: 'http://a:1', HTTP_PROXY: 'http://b:2' })).toBe('http_proxy');
  });

  it('is none without a proxy for the scheme, or with an empty one', () => {
    expect(proxyVariable(https, {})).toBeUndefined();
    expect(proxyVariable(http, { HTTPS_PROXY: 'http://proxy:3128' })).toBeUndefined();
    expect(proxyVariable(https, { HTTP_PROXY: 'http://proxy:3128' })).toBeUndefined();
    expect(proxyVariable(https, { HTTPS_PROXY: '' })).toBeUndefined();
  });

  it.each([
    ['*'],
    ['plants.example.com'],
    ['PLANTS.Example.COM'],
    ['example.com'],
    ['.example.com'],
    ['*.example.com'],
    ['plants.example.com:443'],
    ['other.org,example.com'],
    ['other.org, example.com'],
    ['other.org example.com'],
  ])('NO_PROXY=%j exempts https://plants.example.com', (noProxy) => {
    expect(proxyVariable(https, { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: noProxy })).toBeUndefined();
    expect(proxyVariable(https, { HTTPS_PROXY: 'http://proxy:3128', no_proxy: noProxy })).toBeUndefined();
  });

  it.each([['ample.com'], ['badexample.com'], ['plants.example.co'], ['example.com.evil'], ['other.org'], ['']])(
    'NO_PROXY=%j does not exempt it',
    (noProxy) => {
      expect(proxyVariable(https, { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: noProxy })).toBe('HTTPS_PROXY');
    },
  );

  it('reads no_proxy before NO_PROXY, even when it is empty', () => {
    const env = { HTTPS_PROXY: 'http://proxy:3128', no_proxy: '', NO_PROXY: '*' };
    expect(proxyVariable(https, env)).toBe('HTTPS_PROXY');
  });

  it('matches addresses, IPv6 in brackets, with or without a port', () => {
    const proxy = { HTTP_PROXY: 'http://proxy:3128' };
    expect(proxyVariable(new URL('http://127.0.0.1:3000'), { ...proxy, NO_PROXY: '127.0.0.1' })).toBeUndefined();
    expect(proxyVariable(new URL('http://127.0.0.1:3000'), { ...proxy, NO_PROXY: '127.0.0.1:3000' })).toBeUndefined();
    expect(proxyVariable(new URL('http://[::1]:8080'), { ...proxy, NO_PROXY: '[::1]' })).toBeUndefined();
    expect(proxyVariable(new URL('http://[::1]:8080'), { ...proxy, NO_PROXY: '[::1]:8080' })).toBeUndefined();
    expect(proxyVariable(new URL('http://[::2]:8080'), { ...proxy, NO_PROXY: '[::1]' })).toBe('HTTP_PROXY');
  });
});

describe('connectTimeoutMs', () => {
  it.each([
    [30_000, 29_000],
    [2000, 1000],
    [1999, 999],
    [1111, 999],
    [1000, 900],
    [500, 450],
    [10, 9],
    [6, 5],
    [5, 5], // rounded: under 6 ms, no earlier
    [1, 1],
    [0, 1],
  ])('gives an attempt of %i ms %i ms to connect', (attemptMs, expected) => {
    expect(connectTimeoutMs(attemptMs)).toBe(expected);
  });

  it('gives up before the attempt does (from 6 ms), and never at once', () => {
    for (let attemptMs = 6; attemptMs <= 5000; attemptMs += 1) {
      const connect = connectTimeoutMs(attemptMs);
      expect(connect).toBeGreaterThanOrEqual(1);
      expect(connect).toBeLessThan(attemptMs);
      // A whole second ahead, or under 1 s (undici's connect timer may run late: see connectTimeoutMs).
      expect(connect < 1000 || attemptMs - connect === 1000).toBe(true);
    }
  });
});

describe('httpTransport', () => {
  const made: Dispatcher[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dispatcher) => dispatcher.destroy()));
  });

  it('says who is asking, whether the host is this machine and which proxy it goes through', () => {
    const env = { HTTPS_PROXY: 'http://proxy:3128' };
    expect(httpTransport(new URL('https://plants.example.com'), env, { timeoutMs: 30_000 })).toMatchObject({
      userAgent: `plants/${VERSION} node/${process.versions.node}`,
      loopback: false,
      proxy: 'HTTPS_PROXY',
    });
    expect(httpTransport(new URL('http://localhost:8080'), env, { timeoutMs: 30_000 })).toMatchObject({
      loopback: true,
      proxy: undefined,
    });
  });

  it('makes a plain agent without a proxy, and a proxy-aware one with one', async () => {
    const url = new URL('https://plants.example.com');
    const plain = await httpTransport(url, {}, { timeoutMs: 1000 }).dispatcher();
    made.push(plain);
    expect(plain).toBeInstanceOf(Agent);
    const EnvHttpProxyAgent = await envHttpProxyAgent();
    expect(plain).not.toBeInstanceOf(EnvHttpProxyAgent);
    const proxied = await httpTransport(url, { http_proxy: 'http://proxy:3128' }, { timeoutMs: 1000 }).dispatcher();
    made.push(proxied);
    expect(proxied).toBeInstanceOf(EnvHttpProxyAgent);
  });

  it('refuses a malformed proxy variable when the agent is made, naming the variable', async () => {
    const transport = httpTransport(
      new URL('https://plants.example.com'),
      { HTTPS_PROXY: 'not a url' },
      {
        timeoutMs: 1000,
      },
    );
    expect(transport.proxy).toBe('HTTPS_PROXY');
    await expect(transport.dispatcher()).rejects.toThrow(ConfigError);
    await expect(transport.dispatcher()).rejects.toThrow(/in HTTPS_PROXY/);
  });
});
