import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { getCommand, type GetOptions } from '../../src/commands/config/get.js';
import { setCommand, type SetOptions } from '../../src/commands/config/set.js';
import { deleteCommand, type DeleteOptions } from '../../src/commands/delete.js';
import { listCommand, type ListOptions } from '../../src/commands/list.js';
import { createContext } from '../../src/context.js';
import type { DeleteOutcome } from '../helpers/cli.js';
import { fakeIO, scriptedPrompter } from '../helpers/io.js';
import { inProcess, ORIGIN } from '../helpers/in-process.js';
import { withoutRequestIds } from '../helpers/results.js';

const TOKEN = 'commands-test-token';

const { plants, service, agent, configDir } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };
const SAMPLE = [
  { id: 1, name: 'Monstera', tag: 'tropical' },
  { id: 2, name: 'Aloe' },
];

describe('argument parsing (the run function is replaced)', () => {
  function parse<T>(make: (run: (options: T) => Promise<void>) => import('commander').Command, args: string[]) {
    const run = vi.fn(async (_options: T) => {});
    const command = make(run)
      .exitOverride()
      .configureOutput({ writeErr: () => {}, outputError: () => {} });
    return { run, done: command.parseAsync(args, { from: 'user' }) };
  }
  const ctx = createContext({ io: fakeIO().io, env: {} });

  it('list: parses --limit and --json', async () => {
    const { run, done } = parse<ListOptions>((r) => listCommand(ctx, r), ['-l', '5', '--json']);
    await done;
    expect(run).toHaveBeenCalledWith(
      { limit: 5, output: 'json', columns: undefined, filter: { tags: [], name: undefined } },
      ctx,
    );
  });

  it('list: defaults to no limit, no format (decided by the terminal) and no filter', async () => {
    const { run, done } = parse<ListOptions>((r) => listCommand(ctx, r), []);
    await done;
    expect(run).toHaveBeenCalledWith(
      { limit: undefined, output: undefined, columns: undefined, filter: { tags: [], name: undefined } },
      ctx,
    );
  });

  it('list: parses formats, columns and repeated filters', async () => {
    const { run, done } = parse<ListOptions>(
      (r) => listCommand(ctx, r),
      ['-o', 'CSV', '--columns', 'id, extra.height', '--tag', 'a', '--tag', 'b', '--name', 'F*'],
    );
    await done;
    expect(run).toHaveBeenCalledWith(
      { limit: undefined, output: 'csv', columns: ['id', 'extra.height'], filter: { tags: ['a', 'b'], name: 'F*' } },
      ctx,
    );
  });

  it.each([
    [['-o', 'xml'], /invalid --output "xml": expected one of table, json, ndjson, tsv, csv/],
    [['--json', '-o', 'tsv'], /--json conflicts with --output tsv/],
    [['--columns', 'id,,name'], /invalid --columns/],
  ])('list: rejects %j', async (args, message) => {
    const { run, done } = parse<ListOptions>((r) => listCommand(ctx, r), args);
    await expect(done).rejects.toThrow(message);
    expect(run).not.toHaveBeenCalled();
  });

  it('list: a bad --limit never reaches run', async () => {
    const { run, done } = parse<ListOptions>((r) => listCommand(ctx, r), ['--limit', '-1']);
    await expect(done).rejects.toThrow(/--limit/);
    expect(run).not.toHaveBeenCalled();
  });

  it('config set: checks and normalises the base URL before run', async () => {
    const { run, done } = parse<SetOptions>((r) => setCommand(ctx, r), ['base-url', 'https://plants.example.com/api']);
    await done;
    expect(run).toHaveBeenCalledWith({ key: 'base-url', value: 'https://plants.example.com/api' }, ctx);
    const bad = parse<SetOptions>((r) => setCommand(ctx, r), ['base-url', 'not a url']);
    await expect(bad.done).rejects.toThrow();
    expect(bad.run).not.toHaveBeenCalled();
  });

  it('config get: the token is not a key, and never reaches run', async () => {
    const { run, done } = parse<GetOptions>((r) => getCommand(ctx, r), ['token']);
    await expect(done).rejects.toThrow(/plants auth login/);
    expect(run).not.toHaveBeenCalled();
  });

  it('delete: parses ids and flags, with defaults', async () => {
    const { run, done } = parse<DeleteOptions>((r) => deleteCommand(ctx, r), ['a/b?c', '7', '-y', '--json']);
    await done;
    expect(run).toHaveBeenCalledWith(
      {
        ids: ['a/b?c', '7'],
        stdin: false,
        yes: true,
        json: true,
        dryRun: false,
        ignoreMissing: false,
        concurrency: 8,
        journal: true,
        includeProtected: false,
      },
      ctx,
    );
  });

  it('delete and prune: --include-protected', async () => {
    const del = parse<DeleteOptions>((r) => deleteCommand(ctx, r), ['7', '--include-protected']);
    await del.done;
    expect(del.run.mock.calls[0]![0]).toMatchObject({ includeProtected: true });
  });

  it('delete: --no-journal and --journal-file', async () => {
    const { run, done } = parse<DeleteOptions>(
      (r) => deleteCommand(ctx, r),
      ['7', '--no-journal', '--journal-file', 'run.jsonl'],
    );
    await done;
    expect(run.mock.calls[0]![0]).toMatchObject({ journal: false, journalFile: 'run.jsonl' });
  });

  it('delete: - and --stdin both read standard input', async () => {
    for (const args of [['-'], ['--stdin'], ['1', '-']]) {
      const { run, done } = parse<DeleteOptions>(
        (r) => deleteCommand(ctx, r),
        [...args, '--dry-run', '--concurrency', '64'],
      );
      await done;
      expect(run.mock.calls[0]![0]).toMatchObject({ stdin: true, dryRun: true, concurrency: 64 });
      expect(run.mock.calls[0]![0].ids).toEqual(args.includes('1') ? ['1'] : []);
    }
  });

  it.each([
    [[], /no plant ids given/],
    [['1', '--concurrency', '0'], /invalid --concurrency "0": expected a whole number of requests from 1 to 64/],
    [['1', '--concurrency', '65'], /invalid --concurrency/],
    [['1', ''], /must not be empty/],
  ])('delete: rejects %j', async (args, message) => {
    const { run, done } = parse<DeleteOptions>((r) => deleteCommand(ctx, r), args);
    await expect(done).rejects.toThrow(message);
    expect(run).not.toHaveBeenCalled();
  });
});

describe('plants list', () => {
  it('prints a table with ID, NAME and TAG on a terminal', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, SAMPLE, json);
    const r = await plants(['list'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(['ID  NAME      TAG', '1   Monstera  tropical', '2   Aloe', ''].join('\n'));
  });

  it('fits the table to the terminal, cutting names and never the id; other formats are not cut', async () => {
    const body = [
      { id: 'a1b2c3d4', name: 'Monstera deliciosa "Thai Constellation"', tag: 'tropical' },
      { id: 'e5', name: '植物 🌱 Ficus', tag: null },
    ];
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, body, json).times(2);
    const r = await plants(['list'], { tty: true, columns: 30 });
    expect(r.stdout()).toBe(
      ['ID        NAME        TAG', 'a1b2c3d4  Monstera …  tropical', 'e5        植物 🌱 F…', ''].join('\n'),
    );
    const tsv = await plants(['list', '-o', 'tsv'], { tty: true, columns: 30 });
    expect(tsv.stdout()).toContain('Monstera deliciosa "Thai Constellation"\ttropical\n');
  });

  it('leaves out the ID column when no plant has an id', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ name: 'Fern', tag: 'x' }], json);
    const r = await plants(['list'], { tty: true });
    expect(r.stdout()).toBe('NAME  TAG\nFern  x\n');
  });

  it('says "No plants found" on stderr for an empty list on a terminal', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, [], json);
    const r = await plants(['list'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe('No plants found\n');
  });

  it('prints tab-separated lines without header when piped', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, SAMPLE, json);
    const r = await plants(['list']);
    expect(r.stdout()).toBe('1\tMonstera\ttropical\n2\tAloe\t\n');
    expect(r.stderr()).toBe('');
  });

  it('escapes backslashes and control characters inside TSV values', async () => {
    const name = 'a\tb\nc\\d\re\u001b[31m';
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, [{ name }], json);
    const r = await plants(['list']);
    expect(r.stdout()).toBe('\ta\\tb\\nc\\\\d\\re\\u001b[31m\t\n');
  });

  it('never writes raw escape sequences from the service to the terminal', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ name: 'evil\u001b]0;owned\u0007' }], json);
    const r = await plants(['list'], { tty: true });
    expect(r.stdout()).not.toContain('\u001b');
    expect(r.stdout()).toContain('evil\\u001b]0;owned\\u0007');
  });

  it('--json: compact when piped, every field kept', async () => {
    const body = [{ id: 'x', name: 'A', tag: 't', extra: { height: 2 } }];
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, body, json);
    const r = await plants(['list', '--json']);
    expect(r.stdout()).toBe(`${JSON.stringify(body)}\n`);
  });

  it('--json: pretty on a terminal', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, SAMPLE, json);
    const r = await plants(['list', '--json'], { tty: true });
    expect(r.stdout()).toBe(`${JSON.stringify(SAMPLE, null, 2)}\n`);
  });

  it('enforces --limit on a service that returns more, with a warning', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, SAMPLE, json);
    const r = await plants(['list', '--limit', '1', '--json']);
    expect(withoutRequestIds(JSON.parse(r.stdout()))).toEqual([SAMPLE[0]]);
    expect(r.stderr()).toMatch(/warning: the service returned more plants than --limit 1; showing the first 1/);
  });

  it('rejects a bad --limit with exit 2 and no request', async () => {
    const r = await plants(['list', '--limit', '2147483648']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: invalid --limit "2147483648": expected a whole number of plants from 0 to 2147483647\n',
    );
  });

  it('exits 1 with what was received when the response is not a plant list', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, '<html>hi</html>', { headers: { 'content-type': 'text/html' } });
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr()).toMatch(
      /^plants: GET https:\/\/plants.test\/plants → 200: expected a JSON array of plants, but received text\/html that is not JSON: hi\n$/,
    );
  });

  it('exits 4 on 401 with a hint', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(401, { error: 401, message: 'bad token' }, json);
    const r = await plants(['list']);
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(
      /401 Unauthorized: bad token \(error 401\); the service refused the token from PLANTS_TOKEN; set PLANTS_TOKEN/,
    );
  });

  it('exits 1, not 3, when GET /plants is 404: the address is wrong, no plant is missing', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(404, 'Not Found');
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr()).toBe(
      'plants: GET https://plants.test/plants → 404 Not Found: Not Found; check the base URL (https://plants.test)\n',
    );
  });
});

describe('plants delete', () => {
  it('asks on a terminal, showing the name it looked up, and deletes on yes', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ id: 7, name: 'Fern', tag: 'green' }], json);
    service().intercept({ path: '/plants/7', method: 'DELETE' }).reply(204, '');
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await plants(['delete', '7'], { tty: true, prompter });
    expect(prompter.questions).toEqual(['Delete plant 7 from plants.test (profile default)?']);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('ID  NAME  TAG\n7   Fern  green\n✓ Deleted plant 7\n');
    expect(r.stdout()).toBe('');
  });

  it('fits the table shown before the question to the terminal, the id whole', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ id: 'plant-0007', name: 'Nephrolepis exaltata', tag: 'green' }], json);
    service().intercept({ path: '/plants/plant-0007', method: 'DELETE' }).reply(204, '');
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await plants(['delete', 'plant-0007'], { tty: true, prompter, columns: 30 });
    expect(r.stderr()).toBe(
      'ID          NAME         TAG\nplant-0007  Nephrolepi…  green\n✓ Deleted plant plant-0007\n',
    );
  });

  it('sends nothing when the answer is no, and exits 2', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, [], json);
    const r = await plants(['delete', '7'], { tty: true, prompter: scriptedPrompter({ confirm: [false] }) });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'ID  NAME               TAG\n7   (not in the list)\nplants: cancelled; nothing was deleted\n',
    );
  });

  it('requires --yes without a terminal, before any request', async () => {
    const r = await plants(['delete', '7']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe('plants: --yes is required when not running interactively\n');
  });

  it('is silent on success when not on a terminal', async () => {
    service().intercept({ path: '/plants/7', method: 'DELETE' }).reply(200, '{"ok":true}');
    const r = await plants(['delete', '7', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
  });

  it('--json reports the result per id', async () => {
    service().intercept({ path: '/plants/7', method: 'DELETE' }).reply(202, '');
    const r = await plants(['delete', '7', '--yes', '--json']);
    expect(withoutRequestIds(JSON.parse(r.stdout()))).toEqual([{ id: '7', result: 'deleted', status: 202 }]);
  });

  it('--json reports not_found with the service error, and exits 3', async () => {
    service()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(404, { error: 44, message: 'no such plant' }, json);
    const r = await plants(['delete', '7', '--yes', '--json']);
    expect(r.code).toBe(3);
    const results = JSON.parse(r.stdout()) as { request_id: string }[];
    expect(withoutRequestIds(results)).toEqual([
      { id: '7', result: 'not_found', status: 404, error: { error: 44, message: 'no such plant' } },
    ]);
    // The error line names the same request as the result.
    const requestId = results[0]!.request_id;
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.stderr()).toBe(
      'plants: DELETE https://plants.test/plants/7 → 404 Not Found: no such plant (error 44)\n' +
        `{"error":{"code":"not_found","status":404,"message":"DELETE https://plants.test/plants/7 → 404 Not Found: no such plant (error 44)","request_id":"${requestId}"}}\n`,
    );
  });

  it('--json reports a request that never reached the service as failed, status null', async () => {
    service()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const r = await plants(['delete', '7', '--yes', '--json']);
    expect(r.code).toBe(1);
    const [result] = JSON.parse(r.stdout()) as DeleteOutcome[];
    expect(result).toMatchObject({ id: '7', result: 'failed', status: null, error: { error: null } });
    expect(result?.error?.message).toMatch(/connection refused by plants.test/);
  });

  it('--json reports a request whose answer was lost as unknown: it may have been deleted', async () => {
    service()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const r = await plants(['delete', '7', '--yes', '--json']);
    expect(r.code).toBe(1);
    const [result] = JSON.parse(r.stdout()) as DeleteOutcome[];
    expect(result).toMatchObject({ id: '7', result: 'unknown', status: null, error: { error: null } });
    expect(result?.error?.message).toMatch(/closed by plants.test .*; the plant may have been deleted$/);
    expect(r.stderr()).toMatch(/^plants: DELETE .* closed by plants.test .*; the plant may have been deleted\n/);
  });

  it('exits 1 on a 500 and 4 on a 403', async () => {
    service().intercept({ path: '/plants/1', method: 'DELETE' }).reply(500, 'boom');
    service()
      .intercept({ path: '/plants/2', method: 'DELETE' })
      .reply(403, { error: 403, message: 'read-only token' }, json);
    expect((await plants(['delete', '1', '--yes'])).code).toBe(1);
    const forbidden = await plants(['delete', '2', '--yes']);
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr()).toBe('plants: the service refused to delete plant 2 (403 Forbidden): read-only token\n');
  });

  it('shows a hostile id safely in the prompt', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ id: 'x\u001b[2J', name: 'y\u001b]0;t\u0007' }], json);
    const prompter = scriptedPrompter({ confirm: [false] });
    const r = await plants(['delete', 'x\u001b[2J'], { tty: true, prompter });
    expect(prompter.questions).toEqual(['Delete plant x\\u001b[2J from plants.test (profile default)?']);
    expect(r.stderr()).not.toContain('\u001b');
    expect(r.stderr()).toContain('x\\u001b[2J  y\\u001b]0;t\\u0007');
  });
});

describe('plants prune', () => {
  it('names a matching plant without an id by its position among the matches, counted from 1', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ id: 1, name: 'Aloe', tag: 'weed' }, { name: 'Rose' }, { name: 'Fern', tag: 'weed' }], json);
    const r = await plants(['prune', '--tag', 'weed', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/^plants: matching plant 2 \("Fern"\) has no usable "id"/);
  });
});

describe('a refused token (401, 403)', () => {
  const refuse = (status: number) =>
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(status, { error: status, message: 'bad token' }, json);
  const stored = (profiles: object) =>
    writeFileSync(join(configDir(), 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });

  it('401: names the profile whose token it was and how to log in to it', async () => {
    stored({
      default: { token: TOKEN, 'token-origin': ORIGIN },
      staging: { token: TOKEN, 'token-origin': ORIGIN },
    });
    refuse(401);
    const r = await plants(['--profile', 'staging', 'list'], { env: { PLANTS_TOKEN: '' } });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(
      'plants: GET https://plants.test/plants → 401 Unauthorized: bad token (error 401); ' +
        "the service refused the token of profile staging; run 'plants --profile staging auth login'\n",
    );
  });

  it('403: a permission refused, not a bad token: no login hint', async () => {
    stored({
      default: { token: TOKEN, 'token-origin': ORIGIN },
      staging: { token: TOKEN, 'token-origin': ORIGIN },
    });
    refuse(403);
    const r = await plants(['--profile', 'staging', 'list'], { env: { PLANTS_TOKEN: '' } });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(/403 Forbidden: bad token \(error 403\); the service refused this token the permission/);
    expect(r.stderr()).not.toMatch(/auth login/);
  });

  it('the default profile: the login command needs no --profile', async () => {
    stored({ default: { token: TOKEN, 'token-origin': ORIGIN } });
    refuse(401);
    const r = await plants(['list'], { env: { PLANTS_TOKEN: '' } });
    expect(r.stderr()).toMatch(/; the service refused the token of profile default; run 'plants auth login'\n$/);
  });

  it('a token from PLANTS_TOKEN: says so, whatever profile is selected', async () => {
    stored({ default: { token: 'stored-token' }, staging: {} });
    refuse(401);
    const r = await plants(['--profile', 'staging', 'list']);
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(
      /; the service refused the token from PLANTS_TOKEN; set PLANTS_TOKEN to a valid token \(it overrides any token stored with 'plants auth login'\)\n$/,
    );
  });
});

describe('config profiles', () => {
  it('lines its columns up by the widest entry of each, wide characters counting double', async () => {
    const profiles = {
      default: { 'base-url': 'http://x.test', token: TOKEN },
      long: { 'base-url': 'https://plants.example.com/a/very/long/path/prefix', token: TOKEN },
      // Written by hand: config set would have stored the host as punycode.
      wide: { 'base-url': 'https://例え.jp' },
      bare: {},
    };
    writeFileSync(join(configDir(), 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
    const r = await plants(['config', 'profiles']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(
      [
        '  bare     (no base-url)                                       no token',
        '* default  http://x.test                                       token set',
        '  long     https://plants.example.com/a/very/long/path/prefix  token set',
        '  wide     https://例え.jp                                     no token',
        '',
      ].join('\n'),
    );
  });
});

describe('configuration errors', () => {
  it('exits 2 naming how to set the base URL', async () => {
    const r = await plants(['list'], { env: { PLANTS_BASE_URL: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/no base URL configured; run 'plants config set base-url <url>', set PLANTS_BASE_URL/);
  });

  it('exits 4 naming how to set the token', async () => {
    const r = await plants(['list'], { env: { PLANTS_TOKEN: '' } });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(/no token configured; run 'plants auth login' or set PLANTS_TOKEN/);
  });

  it('lets --base-url override the environment', async () => {
    agent().get('http://flag.test').intercept({ path: '/api/plants', method: 'GET' }).reply(200, [], json);
    const r = await plants(['--base-url', 'http://flag.test/api', 'list']);
    expect(r.code).toBe(0);
  });

  it('accepts --base-url after the command too', async () => {
    agent().get('http://flag.test').intercept({ path: '/plants', method: 'GET' }).reply(200, [], json);
    expect((await plants(['list', '--base-url', 'http://flag.test'])).code).toBe(0);
  });
});

describe('config get', () => {
  it('of an unset key exits 1 with one line', async () => {
    const r = await plants(['config', 'get', 'base-url']);
    expect(r.code).toBe(1);
    expect(r.stderr()).toBe('plants: base-url is not set for profile default\n');
    expect(r.stdout()).toBe('');
  });
});

describe('a profile that does not exist', () => {
  const saved = (config: object) =>
    writeFileSync(join(configDir(), 'config.json'), JSON.stringify(config), { mode: 0o600 });
  const twoProfiles = {
    profiles: { default: { 'base-url': ORIGIN }, staging: { 'base-url': 'https://staging.test' } },
  };

  it.each([
    ['list', ['list']],
    ['delete', ['delete', '1', '--yes']],
    ['prune', ['prune', '--all', '--yes']],
    ['auth status', ['auth', 'status']],
    ['auth logout', ['auth', 'logout']],
    ['config get', ['config', 'get', 'base-url']],
    ['config list', ['config', 'list']],
    ['config unset', ['config', 'unset', 'base-url']],
    ['config profiles', ['config', 'profiles']],
  ])('%s with --profile says so, lists the profiles, exit 2', async (_name, args) => {
    saved(twoProfiles);
    const r = await plants(['--profile', 'stagign', ...args], { env: { PLANTS_BASE_URL: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      "plants: no profile named stagign (from --profile; profiles: default, staging); create one with 'plants --profile stagign config set base-url <url>'\n",
    );
    expect(r.stdout()).toBe('');
  });

  it('named by PLANTS_PROFILE: the same message, naming the variable, code config in the JSON error line', async () => {
    saved(twoProfiles);
    const r = await plants(['list', '--json'], { env: { PLANTS_BASE_URL: '', PLANTS_PROFILE: 'stagign' } });
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: no profile named stagign \(from PLANTS_PROFILE; profiles: default, staging\);/,
    );
    expect(r.stderr()).toMatch(/"code":"config"/);
  });

  it('chosen with config use, then removed from the file by hand: says how to go back', async () => {
    saved({ ...twoProfiles, profile: 'gone' });
    const r = await plants(['config', 'get', 'base-url']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      "plants: no profile named gone (from 'plants config use'; profiles: default, staging); create one with 'plants --profile gone config set base-url <url>', or go back with 'plants config use default'\n",
    );
  });

  it.each([
    ['list', ['list']],
    ['delete', ['delete', '1', '--yes']],
    ['auth status', ['auth', 'status']],
  ])(
    '%s: named by --profile or PLANTS_PROFILE, it must exist even when the base URL and token come from the environment',
    async (_name, args) => {
      const ways: { args: string[]; env: Record<string, string> }[] = [
        { args: ['--profile', 'ci'], env: {} },
        { args: [], env: { PLANTS_PROFILE: 'ci' } },
      ];
      for (const named of ways) {
        const r = await plants([...named.args, ...args], { env: named.env });
        expect(r.code).toBe(2);
        expect(r.stderr()).toMatch(
          /^plants: no profile named ci \(from (--profile|PLANTS_PROFILE); profiles: default\);/,
        );
        expect(r.stdout()).toBe('');
      }
    },
  );

  it('PLANTS_PROFILE=default with the base URL and token from the environment works with no config file', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, [], json);
    const r = await plants(['list'], { env: { PLANTS_PROFILE: 'default' } });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('');
  });

  it('the default profile always exists: a fresh install (no config file) works from the environment', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, [], json);
    expect((await plants(['list'])).code).toBe(0);
    const r = await plants(['config', 'list'], { env: { PLANTS_BASE_URL: '' } });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('profile=default\nbase-url=(not set)\ntoken=(not set)\nmax-deletes=(not set)\n');
  });

  it('config set creates it, saying so on stderr; the default profile is never "created"', async () => {
    const fileOnly = { env: { PLANTS_BASE_URL: undefined } };
    const first = await plants(['--profile', 'staging', 'config', 'set', 'base-url', 'https://staging.test'], fileOnly);
    expect(first.code).toBe(0);
    expect(first.stderr()).toBe('plants: creating profile staging\n');
    const again = await plants(
      ['--profile', 'staging', 'config', 'set', 'base-url', 'https://staging.test/v2'],
      fileOnly,
    );
    expect(again.stderr()).toBe('');
    const fresh = await plants(['config', 'set', 'base-url', ORIGIN], fileOnly);
    expect(fresh.stderr()).toBe('');
    expect(JSON.parse(readFileSync(join(configDir(), 'config.json'), 'utf8'))).toEqual({
      profiles: { staging: { 'base-url': 'https://staging.test/v2' }, default: { 'base-url': ORIGIN } },
    });
  });

  it('auth login creates it, saying so on stderr', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, [], json);
    const r = await plants(['auth', 'login', '--with-token'], {
      stdin: 'abc\n',
      env: { PLANTS_TOKEN: '', PLANTS_PROFILE: 'staging' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('plants: profile staging is new: it is created once the token is stored\n');
    expect(JSON.parse(readFileSync(join(configDir(), 'config.json'), 'utf8'))).toEqual({
      profiles: { staging: { token: 'abc', 'token-origin': ORIGIN } },
    });
  });
});

describe('the context', () => {
  it('reads the global flags once, frozen; a derived context has its own', () => {
    const ctx = createContext({ io: fakeIO().io, env: {}, flags: () => ({ profile: 'staging' }) });
    expect(ctx.flags).toEqual({ profile: 'staging' });
    expect(Object.isFrozen(ctx.flags)).toBe(true);
    expect(ctx.withFlags({ timeout: 2 }).flags).toEqual({ timeout: 2 });
    expect(ctx.flags).toEqual({ profile: 'staging' });
  });
});

describe('auth login', () => {
  it('reads the token from a hidden prompt on a terminal', async () => {
    const prompter = scriptedPrompter({ secret: ['  typed-token \n'] });
    const r = await plants(['auth', 'login'], { tty: true, prompter, env: { PLANTS_TOKEN: '' } });
    expect(r.code).toBe(0);
    expect(prompter.questions).toEqual(['Paste your token: ']);
    expect(r.stderr()).toMatch(/✓ Token stored for profile default in .*config\.json/);
  });

  it('warns when PLANTS_TOKEN will shadow the stored token', async () => {
    const r = await plants(['auth', 'login', '--with-token'], { stdin: 'abc\n' });
    expect(r.code).toBe(0);
    expect(r.stderr()).toMatch(/PLANTS_TOKEN is set in the environment and takes precedence/);
  });

  it('rejects a token with inner whitespace without echoing it', async () => {
    const r = await plants(['auth', 'login', '--with-token'], { stdin: 'two words\n' });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: the token from standard input contains whitespace, control or non-ASCII characters; nothing was stored\n',
    );
  });
});

describe('help and usage', () => {
  it('--help lists exit codes and environment variables, and exits 0', async () => {
    const r = await plants(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toMatch(/Exit codes:[\s\S]*130 +interrupted/);
    expect(r.stdout()).toMatch(/PLANTS_CONFIG_DIR/);
  });

  it('--help and --version that cannot be written (a full disk) fail with one line: exit 1, code output', async () => {
    for (const args of [['--help'], ['list', '--help'], ['--version'], []]) {
      const r = await plants(args, { stdoutFails: 'ENOSPC' });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr()).toBe('plants: could not write to standard output: no space left on device (ENOSPC)\n');
    }
  });

  it('every command has a description, options and examples in its help', async () => {
    const commands = [
      [],
      ['list'],
      ['delete'],
      ['prune'],
      ['config'],
      ['config', 'set'],
      ['config', 'get'],
      ['config', 'unset'],
      ['config', 'list'],
      ['config', 'profiles'],
      ['config', 'use'],
      ['config', 'delete-profile'],
      ['config', 'path'],
      ['auth'],
      ['auth', 'login'],
      ['auth', 'logout'],
      ['auth', 'status'],
      ['completion'],
    ];
    for (const command of commands) {
      const r = await plants([...command, '--help']);
      const name = command.join(' ') || 'plants';
      expect(r.code, name).toBe(0);
      expect(r.stdout(), name).toMatch(/^Usage: plants.*\n\n\S.*\n/);
      expect(r.stdout(), name).toContain('Options:');
      expect(r.stdout(), name).toContain('Examples:\n  plants');
    }
  });

  it('--version prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const r = await plants(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(`${version}\n`);
  });

  it('completion --help says how to install for each shell', async () => {
    const r = await plants(['completion', '--help']);
    for (const shell of ['bash', 'zsh', 'fish']) {
      expect(r.stdout()).toMatch(new RegExp(`^  plants completion ${shell} > \\S`, 'm'));
    }
  });

  it('an unknown command suggests the closest one and exits 2', async () => {
    const r = await plants(['lst']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe("plants: unknown command 'lst' (Did you mean list?)\n");
  });

  it('help <unknown> says so in one line with a suggestion, exit 2, not the whole help', async () => {
    const r = await plants(['help', 'lst']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe("plants: unknown command 'lst' (Did you mean list?)\n");
    expect(r.stdout()).toBe('');
    const nested = await plants(['help', 'config', 'sett']);
    expect(nested.code).toBe(2);
    expect(nested.stderr()).toBe("plants: unknown command 'config sett' (Did you mean config set?)\n");
    const far = await plants(['help', 'xyzzy']);
    expect(far.code).toBe(2);
    expect(far.stderr()).toBe("plants: unknown command 'xyzzy' (see plants --help)\n");
    const tooDeep = await plants(['help', 'list', 'extra']);
    expect(tooDeep.code).toBe(2);
    expect(tooDeep.stderr()).toBe("plants: unknown command 'list extra' (see plants list --help)\n");
  });

  it('help shows the help of a command at any depth, as --help does', async () => {
    for (const path of [[], ['list'], ['config'], ['config', 'set'], ['auth', 'login']]) {
      const viaHelp = await plants(['help', ...path]);
      const viaFlag = await plants([...path, '--help']);
      expect(viaHelp.code, path.join(' ')).toBe(0);
      expect(viaHelp.stderr(), path.join(' ')).toBe('');
      expect(viaHelp.stdout(), path.join(' ')).toBe(viaFlag.stdout());
    }
    expect((await plants(['help', 'config', 'set'])).stdout()).toMatch(
      /^Usage: plants config set \[options\] <key> <value>\n/,
    );
    // The groups have the same help command.
    expect((await plants(['config', 'help', 'set'])).stdout()).toMatch(/^Usage: plants config set /);
    const group = await plants(['auth', 'help', 'logn']);
    expect(group.code).toBe(2);
    expect(group.stderr()).toBe("plants: unknown command 'logn' (Did you mean login?)\n");
  });

  it('an unknown option exits 2 in one line', async () => {
    const r = await plants(['list', '--limt', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr().trim().split('\n')).toHaveLength(1);
    expect(r.stderr()).toMatch(/^plants: .*--limt.*(\(see --help\)|Did you mean --limit\?)/);
  });
});

describe("the command line's conventions", () => {
  it('plants alone prints the help on stdout and exits 0; an unknown command still exits 2', async () => {
    const r = await plants([]);
    expect(r.code).toBe(0);
    expect(r.stdout()).toMatch(/^Usage: plants \[options\] \[command\]\n/);
    expect(r.stderr()).toBe('');
    const unknown = await plants(['nosuch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout()).toBe('');
  });

  it('--ignore-not-found is --ignore-missing, under kubectl’s name', async () => {
    service()
      .intercept({ path: '/plants/9', method: 'DELETE' })
      .reply(404, { error: 404, message: 'no such plant' }, json);
    const r = await plants(['delete', '9', '--yes', '--ignore-not-found', '--no-journal']);
    expect(r.code).toBe(0);
  });
});
