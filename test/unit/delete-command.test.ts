import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { createIOStreams } from '../../src/output/iostreams.js';
import { inProcess, ORIGIN } from '../helpers/in-process.js';
import { scriptedPrompter } from '../helpers/io.js';
import { withoutRequestIds } from '../helpers/results.js';

// What `plants delete` sends, asks and reports, run in process (docs/commands.md).

const TOKEN = 'delete-command-test-token';
const { plants, service, agent, configDir } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };

interface JsonResult {
  id: string;
  result: string;
  status: number | null;
  error?: { error: unknown; message: string };
}

/** The DELETE of one id answers `status` (204 unless told). */
function deletes(id: string, status = 204, body: string | object = '') {
  service()
    .intercept({ path: `/plants/${encodeURIComponent(id)}`, method: 'DELETE' })
    .reply(status, body, typeof body === 'string' ? {} : json);
}

/** The DELETE of one id whose answer never comes (the connection closes): it may have been deleted. */
function loses(id: string) {
  service()
    .intercept({ path: `/plants/${id}`, method: 'DELETE' })
    .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
}

/** The JSON error line: the last line of stderr with --json. */
function errorLine(stderr: string): {
  code: string;
  status: number | null;
  message: string;
  request_id: string | null;
} {
  const lines = stderr.trimEnd().split('\n');
  return (
    JSON.parse(lines.at(-1)!) as {
      error: { code: string; status: number | null; message: string; request_id: string | null };
    }
  ).error;
}

describe('which ids are deleted', () => {
  it('deletes each id once, in the order of first appearance', async () => {
    for (const id of ['3', '1', '2']) deletes(id);
    const r = await plants(['delete', '3', '1', '3', '2', '1', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => [x.id, x.result])).toEqual([
      ['3', 'deleted'],
      ['1', 'deleted'],
      ['2', 'deleted'],
    ]);
  });

  it('- reads more ids from standard input, after those given as arguments', async () => {
    for (const id of ['1', '2', '3']) deletes(id);
    const r = await plants(['delete', '1', '-', '--yes', '--json', '--concurrency', '1'], { stdin: '2\n3\n1\n' });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => x.id)).toEqual(['1', '2', '3']);
  });

  describe('after --, every word is an id: - too, and standard input is not read', () => {
    const flags = ['--yes', '--json', '--concurrency', '1'];
    // Each case: the arguments, what standard input holds, the ids deleted, in order.
    it.each([
      [['delete', ...flags, '--', '-'], '7\n8', ['-']],
      [['--retries', '0', 'delete', ...flags, '1', '--', '-', '-1', '--yes'], '7\n8', ['1', '-', '-1', '--yes']],
      [['delete', ...flags, '--', '--'], '7', ['--']],
      [['delete', '-', ...flags, '--', '-'], '7\n8', ['-', '7', '8']],
      [['delete', '--stdin', ...flags, '--', '-2'], '7', ['-2', '7']],
      [['delete', '-', ...flags], '7\n8', ['7', '8']],
      [['delete', '--max-deletes', '5', ...flags, '--', '-'], '7', ['-']],
    ])('%j with %j on stdin deletes %j', async (args, input, ids) => {
      for (const id of ids) deletes(id);
      const r = await plants(args, { stdin: input });
      expect(r.stderr()).toBe('');
      expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => x.id)).toEqual(ids);
      expect(r.code).toBe(0);
    });

    it('with no option before --, as the program reads it: delete -- - asks about the plant -', async () => {
      service().intercept({ path: '/plants', method: 'GET' }).reply(200, '[{"id":"-","name":"Dash"}]', json);
      deletes('-');
      deletes('1');
      const prompter = scriptedPrompter({ confirm: [true] });
      const r = await plants(['delete', '--', '-', '1'], { tty: true, prompter });
      expect(prompter.questions).toEqual(['Delete these 2 plants from plants.test (profile default)?']);
      expect(r.code).toBe(0);
    });
  });

  it('--stdin reads the JSON plants list --json prints', async () => {
    deletes('a');
    deletes('7');
    const stdin = JSON.stringify([
      { id: 'a', name: 'Fern 9' },
      { id: 7, name: 'Rose' },
    ]);
    const r = await plants(['delete', '--stdin', '--yes', '--json', '--concurrency', '1'], { stdin });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => x.id)).toEqual(['a', '7']);
  });

  it('without --stdin or -, standard input is not read', async () => {
    deletes('1');
    const r = await plants(['delete', '1', '--yes', '--json'], { stdin: '2\n' });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => x.id)).toEqual(['1']);
  });

  it('reads an id list of more than 256 KiB', async () => {
    const ids = Array.from({ length: 30_000 }, (_, i) => `plant-${i + 1}`);
    const r = await plants(['delete', '--stdin', '--dry-run'], { stdin: ids.join('\n') });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(`${ids.join('\n')}\n`);
  });

  it('--stdin refuses a terminal as standard input (it would wait for typing), sending nothing', async () => {
    const r = await plants(['delete', '--stdin', '--yes'], { stdinTTY: true });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: --stdin reads ids from a pipe or file (plants list --json | plants delete --stdin --yes)\n',
    );
  });

  it('refuses input that is not ids before sending anything', async () => {
    const r = await plants(['delete', '--stdin', '--yes'], { stdin: 'ID  NAME\n7   Fern\n' });
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/^plants: standard input looks like a table/);
  });

  it.each([
    ['no input at all', ''],
    ['an empty JSON array, as list --json prints when nothing matches', '[]\n'],
    ['an empty JSON array after a BOM', '\uFEFF[ ]'],
    ['the CSV header list -o csv prints alone', 'id,name,tag\r\n'],
    ['the one-column CSV header alone', 'id\n'],
  ])('an empty selection (%s) deletes nothing and says so, exit 0; [] with --json', async (_, stdin) => {
    const r = await plants(['delete', '--stdin', '--yes'], { stdin });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe('No plants to delete\n');
    const j = await plants(['delete', '-', '--yes', '--json'], { stdin });
    expect(j.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(j.stdout()))).toEqual([]);
    expect(j.stderr()).toBe('No plants to delete\n');
  });

  it.each([
    ['one blank line (echo of an unset variable)', '\n', /^standard input has 1 line, all blank: it names no plant/],
    ['blank lines (cut -f1 of plants without ids)', '\n\n\n', /^standard input has 3 lines, all blank/],
    ['lines of spaces, CRLF', ' \r\n\t\r\n  ', /^standard input has 3 lines, all blank/],
    ['a BOM, then blank lines', '\uFEFF\n\n', /^standard input has 2 lines, all blank/],
    [
      'one-column CSV of plants without ids',
      'id\r\n\r\n\r\n',
      /^standard input is CSV whose 2 rows after the header are blank/,
    ],
    [
      'a CSV row of an empty quoted id',
      'id\r\n""\r\n',
      /^standard input is CSV whose one row after the header is blank/,
    ],
    ['JSON items without an id', '[{"name":"Fern"}]', /^item 1 of the JSON on standard input has no usable "id"/],
    ['NDJSON without an id', '{"name":"Fern"}\n', /^line 1 of standard input has no usable "id"/],
  ])('input that names no plant (%s) is refused: exit 2, nothing sent', async (_, stdin, message) => {
    const r = await plants(['delete', '--stdin', '--yes', '--json'], { stdin });
    expect(r.code).toBe(2);
    expect(r.stdout()).toBe('');
    const { error } = JSON.parse(r.stderr().trimEnd().split('\n').at(-1)!) as {
      error: { code: string; message: string };
    };
    expect(error.code).toBe('usage');
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/nothing was deleted$/);
  });
});

describe('every id is checked before any is sent', () => {
  it('an id that cannot be sent (an unpaired surrogate, from JSON) stops the run before the first DELETE', async () => {
    const r = await plants(['delete', '--stdin', '--yes'], { stdin: '["1", "\\ud800"]' });
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: invalid plant id .*: it contains an unpaired UTF-16 surrogate; nothing was deleted: leave it out/,
    );
  });
});

describe('--max-deletes', () => {
  it('a percentage is of the plants the service lists: delete lists first, then refuses or goes on', async () => {
    const garden = JSON.stringify(Array.from({ length: 15 }, (_, i) => ({ id: i + 1, name: `p${i + 1}` })));
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, garden, json);
    // 10% of 15 is 1.5: rounded down, 1.
    const refused = await plants(['delete', '1', '2', '--yes', '--max-deletes', '10%']);
    expect(refused.code).toBe(2);
    expect(refused.stderr()).toBe(
      'plants: 2 plants would be deleted, more than --max-deletes 10% (1 of the 15 plants listed); nothing was deleted\n',
    );
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, garden, json);
    deletes('1');
    expect((await plants(['delete', '1', '--yes', '--max-deletes', '10%'])).code).toBe(0);
  });

  it('refuses more plants than the cap, duplicates counted once, sending nothing (exit 2)', async () => {
    const r = await plants(['delete', '1', '2', '3', '2', '--yes', '--max-deletes', '2', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout()).toBe('');
    expect(errorLine(r.stderr())).toEqual({
      code: 'refused',
      status: null,
      message: '3 plants would be deleted, more than --max-deletes 2; nothing was deleted',
      request_id: null,
    });
  });

  it('0 allows none: one plant is refused too', async () => {
    const r = await plants(['delete', '1', '--yes', '--max-deletes', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe('plants: 1 plant would be deleted, more than --max-deletes 0; nothing was deleted\n');
  });

  it('allows exactly the cap', async () => {
    deletes('1');
    deletes('2');
    const r = await plants(['delete', '1', '2', '1', '--yes', '--max-deletes', '2']);
    expect(r.code).toBe(0);
  });

  it('refuses a dry run the same way, so the dry run predicts the real one', async () => {
    const r = await plants(['delete', '1', '2', '--dry-run', '--max-deletes', '1']);
    expect(r.code).toBe(2);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toMatch(/^plants: 2 plants would be deleted, more than --max-deletes 1/);
  });
});

describe('--dry-run', () => {
  it('piped: prints the ids, one a line, and sends nothing, without --yes', async () => {
    const r = await plants(['delete', '1', 'a\tb', '1', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('1\na\\tb\n');
    expect(r.stderr()).toBe('Would delete 2 plants from plants.test (profile default); dry run: nothing was sent\n');
  });

  it('says "plant" for one', async () => {
    const r = await plants(['delete', '1', '--dry-run']);
    expect(r.stderr()).toBe('Would delete 1 plant from plants.test (profile default); dry run: nothing was sent\n');
  });

  it('--json: every id as would_delete', async () => {
    const r = await plants(['delete', '1', '2', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout()))).toEqual([
      { id: '1', result: 'would_delete', status: null },
      { id: '2', result: 'would_delete', status: null },
    ]);
  });

  it('on a terminal: the table of every plant (looked up by name) on stdout, asking nothing', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ id: 12, name: 'Fern', tag: 'green' }], json);
    const r = await plants(['delete', ...ids, '--dry-run'], { tty: true });
    expect(r.code).toBe(0);
    const lines = r.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines[0]).toMatch(/^ID +NAME +TAG$/);
    expect(lines[1]).toMatch(/^1 +\(not in the list\)$/);
    expect(lines[12]).toMatch(/^12 +Fern +green$/);
    expect(r.stderr()).toBe('Would delete 12 plants from plants.test (profile default); dry run: nothing was sent\n');
  });
});

describe('--dry-run and the journal', () => {
  it('refuses what the real run would refuse for its journal (exit 2), in the same words, writing nothing', async () => {
    const file = join(configDir(), 'a-file');
    writeFileSync(file, '');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--journal-file', join(configDir(), 'no-such-dir', 'j.jsonl')], {}, /no such file or directory \(ENOENT\)/],
      [['--journal-file', join(file, 'j.jsonl')], {}, /not a directory \(ENOTDIR\)/],
      [['--journal-file', configDir()], {}, /illegal operation on a directory \(EISDIR\)/],
      [[], { PLANTS_STATE_DIR: file }, /something that is not a directory is in its place/],
      [[], { PLANTS_STATE_DIR: join(file, 'state', 'deeper') }, /not a directory \(ENOTDIR\)/],
      [['--no-journal'], { PLANTS_STATE_DIR: file, PLANTS_JOURNAL: 'maybe' }, /invalid PLANTS_JOURNAL "maybe"/],
    ];
    for (const [args, env, reason] of cases) {
      const dry = await plants(['delete', '1', '--dry-run', ...args], { env });
      const real = await plants(['delete', '1', '--yes', ...args], { env });
      expect(real.code, args.join(' ')).toBe(2);
      expect(real.stderr(), args.join(' ')).toMatch(reason);
      expect(dry.code, args.join(' ')).toBe(2);
      expect(dry.stderr(), args.join(' ')).toBe(real.stderr());
      expect(dry.stdout()).toBe('');
    }
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('a dry run that could journal makes nothing: no state directory, no --journal-file', async () => {
    const state = join(configDir(), 'fresh', 'state');
    const extra = join(configDir(), 'extra.jsonl');
    const r = await plants(['delete', '1', '--dry-run', '--journal-file', extra], { env: { PLANTS_STATE_DIR: state } });
    expect(r.code).toBe(0);
    expect(existsSync(join(configDir(), 'fresh'))).toBe(false);
    expect(existsSync(extra)).toBe(false);
  });
});

describe('confirmation', () => {
  it('names where it deletes: the host with the path prefix, and the profile; a dry run too', async () => {
    service().intercept({ path: '/api/v1/plants', method: 'GET' }).reply(200, '[{"id":7,"name":"Fern"}]', json);
    service().intercept({ path: '/api/v1/plants/7', method: 'DELETE' }).reply(204, '');
    const prompter = scriptedPrompter({ confirm: [true] });
    const env = { PLANTS_BASE_URL: 'https://plants.test/api/v1/' };
    const r = await plants(['delete', '7'], { tty: true, prompter, env });
    expect(r.code).toBe(0);
    expect(prompter.questions).toEqual(['Delete plant 7 from plants.test/api/v1 (profile default)?']);
    const dry = await plants(['delete', '7', '8', '--dry-run'], { env });
    expect(dry.stderr()).toBe(
      'Would delete 2 plants from plants.test/api/v1 (profile default); dry run: nothing was sent\n',
    );
  });

  it('asks once for the whole batch, showing the first ten and how many more', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ id: 2, name: 'Aloe' }], json);
    const prompter = scriptedPrompter({ confirm: [false] });
    const r = await plants(['delete', ...ids], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(prompter.questions).toEqual(['Delete these 12 plants from plants.test (profile default)?']);
    const lines = r.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines[2]).toMatch(/^2 +Aloe$/);
    expect(lines[10]).toMatch(/^10 +\(not in the list\)$/);
    expect(lines[11]).toBe('… and 2 more');
    expect(lines[12]).toBe('plants: cancelled; nothing was deleted');
  });

  it('shows the plant listed under exactly the id given, not another spelling of it listed first', async () => {
    // Ids are text to this service: 7 and 07 are two plants. 07 is the second, in a later batch of the list.
    const list = `[{"id":7,"name":"Seven"},${'{"id":1,"name":"x"},'.repeat(3000)}{"id":"07","name":"Zero-seven"}]`;
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, list, json);
    const prompter = scriptedPrompter({ confirm: [false] });
    const r = await plants(['delete', '07', '7.0'], { tty: true, prompter });
    expect(r.code).toBe(2);
    const lines = r.stderr().trimEnd().split('\n');
    expect(lines[1]).toMatch(/^07 +Zero-seven$/);
    // No plant is listed as 7.0: the one under the same number stands in, as before.
    expect(lines[2]).toMatch(/^7\.0 +Seven$/);
  });

  it('still asks when the names cannot be looked up, saying why', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(500, 'down');
    deletes('1');
    deletes('2');
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await plants(['delete', '1', '2'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.questions).toEqual(['Delete these 2 plants from plants.test (profile default)?']);
    expect(r.stderr()).toMatch(/^plants: warning: could not look up the plants' names: GET .*500/);
    expect(r.stderr()).toMatch(/\nID\n1\n2\nDeleted 2\n$/);
  });

  it('does not ask when the lookup was refused the token (401): every DELETE would be, so the run ends, exit 4', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(401, { error: 401, message: 'bad token' }, json);
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await plants(['delete', '1', '2'], { tty: true, prompter });
    expect(r.code).toBe(4);
    expect(prompter.questions).toEqual([]);
    expect(r.stderr()).toMatch(/401/);
    expect(r.stderr()).not.toMatch(/warning|Deleted/);
  });

  it('still asks after a 403 on the lookup: a token may be allowed to delete what it may not list', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(403, { error: 403, message: 'no listing' }, json);
    deletes('1');
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await plants(['delete', '1'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.questions).toHaveLength(1);
    expect(r.stderr()).toMatch(/^plants: warning: could not look up the plants' names: .*403/);
  });

  it('reads the list only until the plants shown are found: the rest may even be cut short', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, '[{"id":1,"name":"Aloe"},{"id":7,"name":"Fern"},{"id":7,"name":"Other"},{"id":9,"na', json);
    const prompter = scriptedPrompter({ confirm: [false] });
    const r = await plants(['delete', '7'], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe('ID  NAME  TAG\n7   Fern\nplants: cancelled; nothing was deleted\n');
  });

  it('looks up only the ten plants shown', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
    const listed = ids.slice(0, 10).map((id) => `{"id":${id},"name":"P${id}"}`);
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, `[${listed.join(',')},{"id":11,"na`, json);
    const prompter = scriptedPrompter({ confirm: [false] });
    const r = await plants(['delete', ...ids], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(r.stderr()).not.toContain('warning');
    expect(r.stderr()).toMatch(/\n10 +P10\n… and 2 more\n/);
  });

  it('prune shows the plants it listed, with no second list request', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(
        200,
        [
          { id: 1, name: 'Dandelion', tag: 'weed' },
          { id: 2, name: 'Rose', tag: 'flower' },
        ],
        json,
      );
    const prompter = scriptedPrompter({ confirm: [false] });
    const r = await plants(['prune', '--tag', 'weed'], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(prompter.questions).toEqual(['Delete plant 1 from plants.test (profile default)?']);
    expect(r.stderr()).toBe('ID  NAME       TAG\n1   Dandelion  weed\nplants: cancelled; nothing was deleted\n');
  });

  it('--yes asks nothing and looks nothing up', async () => {
    deletes('1');
    const r = await plants(['delete', '1', '--yes'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('✓ Deleted plant 1\n');
  });

  it('--yes is required without a terminal even with --json, before reading input', async () => {
    const r = await plants(['delete', '--stdin', '--json'], { stdin: 'not ids\t\n' });
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr()).message).toBe('--yes is required when not running interactively');
  });
});

describe('what is reported', () => {
  it('several deleted on a terminal: the summary line; piped: silent', async () => {
    for (const id of ['1', '2']) deletes(id);
    const tty = await plants(['delete', '1', '2', '--yes'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout()).toBe('');
    expect(tty.stderr()).toBe('Deleted 2\n');
    for (const id of ['1', '2']) deletes(id);
    const piped = await plants(['delete', '1', '2', '--yes']);
    expect(piped.code).toBe(0);
    expect(piped.stdout() + piped.stderr()).toBe('');
  });

  it('a progress bar on a terminal for more than ten ids, none for ten', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => String(i + 1));
    for (const id of eleven) deletes(id);
    const r = await plants(['delete', ...eleven, '--yes'], { tty: true });
    expect(r.code).toBe(0);
    const erase = '\r\u001b[2K';
    expect(r.stderr().startsWith(`${erase}Deleting [${'-'.repeat(30)}] 0/11`)).toBe(true);
    expect(r.stderr()).toContain(`${erase}Deleting [${'#'.repeat(30)}] 11/11`);
    expect(r.stderr().endsWith(`${erase}Deleted 11\n`)).toBe(true);
    for (const id of eleven.slice(1)) deletes(id);
    const ten = await plants(['delete', ...eleven.slice(1), '--yes'], { tty: true });
    expect(ten.stderr()).toBe('Deleted 10\n');
  });

  it('a 404: exit 3, one line for it and the summary; the JSON line counts the missing', async () => {
    deletes('1');
    deletes('2', 404, { error: 44, message: 'no such plant' });
    const r = await plants(['delete', '1', '2', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(3);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => [x.result, x.status])).toEqual([
      ['deleted', 204],
      ['not_found', 404],
    ]);
    expect(r.stderr()).toBe(
      'plants: DELETE https://plants.test/plants/2 → 404 Not Found: no such plant (error 44)\n' +
        'Deleted 1, not found 1\n' +
        '{"error":{"code":"not_found","status":null,"message":"1 of 2 plants were not found","request_id":null}}\n',
    );
  });

  it('--ignore-missing: a 404 is success, exit 0, reported as not_found', async () => {
    deletes('1', 404, { error: 44, message: 'no such plant' });
    deletes('2');
    const r = await plants(['delete', '1', '2', '--yes', '--json', '--ignore-missing', '--concurrency', '1']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => x.result)).toEqual(['not_found', 'deleted']);
    expect(r.stderr()).toBe('');
  });

  it('--ignore-missing: one id not found exits 0 and is silent', async () => {
    deletes('1', 404, { error: 44, message: 'no such plant' });
    const r = await plants(['delete', '1', '--yes', '--ignore-missing'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('');
  });

  it('--ignore-missing does not excuse other failures', async () => {
    deletes('1', 404, { error: 44, message: 'no such plant' });
    deletes('2', 500, 'boom');
    const r = await plants(['delete', '1', '2', '--yes', '--json', '--ignore-missing', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr()).toMatch(/^plants: DELETE https:\/\/plants.test\/plants\/2 → 500 Internal Server Error/);
    expect(r.stderr()).not.toContain('/plants/1 ');
    expect(r.stderr()).toContain('\nDeleted 0, not found 1, failed 1\n');
    expect(errorLine(r.stderr())).toEqual({
      code: 'partial_failure',
      status: null,
      message: '1 of 2 deletes failed',
      request_id: null,
    });
  });

  it('failures and lost answers: exit 1, a line for each, the summary, and how many may have been deleted', async () => {
    deletes('1');
    loses('2');
    deletes('3', 500, 'boom');
    deletes('4', 404, { error: 44, message: 'no such plant' });
    const r = await plants(['delete', '1', '2', '3', '4', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => x.result)).toEqual([
      'deleted',
      'unknown',
      'failed',
      'not_found',
    ]);
    const lines = r.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^plants: DELETE .*\/plants\/2 .*; the plant may have been deleted$/);
    expect(lines[1]).toMatch(/^plants: DELETE .*\/plants\/3 → 500/);
    expect(lines[2]).toMatch(/^plants: DELETE .*\/plants\/4 → 404/);
    expect(lines[3]).toBe('Deleted 1, not found 1, unknown 1, failed 1');
    expect(errorLine(r.stderr())).toEqual({
      code: 'partial_failure',
      status: null,
      message: '2 of 4 deletes failed (1 of them may have been deleted)',
      request_id: null,
    });
  });

  it('the summary appears without a terminal when something failed', async () => {
    deletes('1');
    deletes('2', 500, 'boom');
    const r = await plants(['delete', '1', '2', '--yes', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toMatch(/^plants: DELETE .*\/plants\/2 → 500 .*\nDeleted 1, failed 1\n$/);
  });

  it('a refused token: exit 4 whatever else failed; the ids after it are skipped, not sent', async () => {
    deletes('1', 500, 'boom');
    deletes('2', 401, { error: 401, message: 'bad token' });
    const r = await plants(['delete', '1', '2', '3', '4', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(4);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => [x.id, x.result, x.status])).toEqual([
      ['1', 'failed', 500],
      ['2', 'failed', 401],
      ['3', 'skipped', null],
      ['4', 'skipped', null],
    ]);
    expect(r.stderr()).toContain('\nDeleted 0, failed 2, skipped 2\n');
    // The status behind the stop, as for a 404 of a wrong address or a 429 that stops a run.
    expect(errorLine(r.stderr())).toEqual({
      code: 'auth',
      status: 401,
      message: 'the service refused the token; 2 plants were not attempted',
      request_id: null,
    });
  });

  it('a refused token with one id left: "1 plant was not attempted"', async () => {
    deletes('1', 401, { error: 401, message: 'bad token' });
    const r = await plants(['delete', '1', '2', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(4);
    expect(errorLine(r.stderr()).message).toBe('the service refused the token; 1 plant was not attempted');
  });

  it('a 404 without an Error object (a wrong base URL) stops the run: exit 1, code http_error, --ignore-missing or not', async () => {
    deletes('1', 404, 'Not Found');
    const r = await plants(['delete', '1', '2', '3', '--yes', '--json', '--ignore-missing', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => [x.id, x.result, x.status])).toEqual([
      ['1', 'failed', 404],
      ['2', 'skipped', null],
      ['3', 'skipped', null],
    ]);
    const error = errorLine(r.stderr());
    expect(error.code).toBe('http_error');
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/counted as failed, not as a missing plant; .*; 2 plants were not attempted$/);
  });

  describe('a service asking for fewer requests stops the run: the rest are skipped, not sent', () => {
    /** Ids 1 to 4, one at a time: 1 deleted, then 2 answered as given, 3 and 4 never sent (nothing intercepts them). */
    async function run(status: number, headers: Record<string, string>, retries = '0') {
      deletes('1');
      service()
        .intercept({ path: '/plants/2', method: 'DELETE' })
        .reply(status, { error: status, message: 'slow down' }, { headers: { ...json.headers, ...headers } });
      return plants(['--retries', retries, 'delete', '1', '2', '3', '4', '--yes', '--json', '--concurrency', '1']);
    }

    it.each([
      [429, { 'retry-after': '3600' }, '0', ' and asks to be retried in 3600 s'],
      // Beyond the longest wait, the retries end at once.
      [429, { 'retry-after': '3600' }, '2', ' and asks to be retried in 3600 s'],
      [429, {}, '0', ''],
      [503, { 'retry-after': '120' }, '0', ' and asks to be retried in 120 s'],
      // Retry-After: 0 asks for no wait: none is named.
      [503, { 'retry-after': '0' }, '0', ''],
    ])('%i %o with --retries %s', async (status, headers, retries, when) => {
      const r = await run(status, headers, retries);
      expect(r.code).toBe(1);
      expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => [x.id, x.result, x.status])).toEqual([
        ['1', 'deleted', 204],
        ['2', 'failed', status],
        ['3', 'skipped', null],
        ['4', 'skipped', null],
      ]);
      const error = errorLine(r.stderr());
      expect(error.code).toBe('http_error');
      expect(error.status).toBe(status);
      const text = status === 429 ? '429 Too Many Requests' : '503 Service Unavailable';
      expect(error.message).toBe(
        `the service answered ${text}${when}; 2 plants were not attempted, so as not to add to its load: send them again later`,
      );
    });

    it('a Retry-After date: the wait to it, in whole seconds', async () => {
      const r = await run(503, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() });
      expect(r.code).toBe(1);
      // The date has no milliseconds: an hour from now, less up to a second, rounded up.
      expect(errorLine(r.stderr()).message).toMatch(
        /^the service answered 503 Service Unavailable and asks to be retried in 3\d{3} s; 2 plants were not attempted/,
      );
    });

    it('one plant skipped: said of one plant', async () => {
      deletes('1');
      deletes('2', 429, { error: 429, message: 'slow down' });
      const r = await plants(['--retries', '0', 'delete', '1', '2', '3', '--yes', '--json', '--concurrency', '1']);
      expect(r.code).toBe(1);
      expect(errorLine(r.stderr())).toMatchObject({
        code: 'http_error',
        status: 429,
        message:
          'the service answered 429 Too Many Requests; 1 plant was not attempted, so as not to add to its load: send them again later',
      });
    });

    it('without --json, a person is told why the rest were skipped and when to send them: the last line', async () => {
      deletes('1');
      service()
        .intercept({ path: '/plants/2', method: 'DELETE' })
        .reply(429, { error: 429, message: 'slow down' }, { headers: { ...json.headers, 'retry-after': '20' } });
      const r = await plants(['--retries', '0', 'delete', '1', '2', '3', '4', '--yes', '--concurrency', '1']);
      expect(r.code).toBe(1);
      expect(r.stderr().trimEnd().split('\n').slice(-2)).toEqual([
        'Deleted 1, failed 1, skipped 2',
        'plants: the service answered 429 Too Many Requests and asks to be retried in 20 s; 2 plants were not attempted, so as not to add to its load: send them again later',
      ]);
    });

    it('a 503 without Retry-After, or a 500, fails only its plant: the run goes on', async () => {
      for (const status of [503, 500]) {
        deletes('1');
        deletes('2', status, { error: status, message: 'hiccup' });
        deletes('3');
        const r = await plants(['--retries', '0', 'delete', '1', '2', '3', '--yes', '--json', '--concurrency', '1']);
        expect(r.code).toBe(1);
        expect((JSON.parse(r.stdout()) as JsonResult[]).map((x) => x.result)).toEqual(['deleted', 'failed', 'deleted']);
        expect(errorLine(r.stderr()).code).toBe('partial_failure');
      }
    });

    it('the last id answered 429: nothing was skipped, so the usual partial failure', async () => {
      deletes('1');
      deletes('2', 429, { error: 429, message: 'slow down' });
      const r = await plants(['--retries', '0', 'delete', '1', '2', '--yes', '--json', '--concurrency', '1']);
      expect(r.code).toBe(1);
      expect(errorLine(r.stderr())).toMatchObject({ code: 'partial_failure', message: '1 of 2 deletes failed' });
    });

    it('of two such answers in flight at once, the last line names the longer wait, whichever came first', async () => {
      const args = ['--retries', '0', 'delete', '1', '2', '3', '4', '--yes', '--json', '--concurrency', '2'];
      for (const waits of [
        ['60', '3600'],
        ['3600', '60'],
      ]) {
        waits.forEach((wait, i) =>
          service()
            .intercept({ path: `/plants/${i + 1}`, method: 'DELETE' })
            .reply(429, { error: 429, message: 'slow down' }, { headers: { ...json.headers, 'retry-after': wait } }),
        );
        const r = await plants(args);
        expect(r.code).toBe(1);
        expect(errorLine(r.stderr()).message).toMatch(
          /^the service answered 429 Too Many Requests and asks to be retried in 3600 s; 2 plants were not attempted/,
        );
      }
    });

    it('a wait past a year is said as "more than a year", not as a figure of 20 digits', async () => {
      const r = await run(429, { 'retry-after': '99999999999999999999999' }, '2');
      expect(r.code).toBe(1);
      expect(r.stderr()).toContain(
        '(the service asks to be retried in more than a year, later than plants waits: 30 s)',
      );
      expect(errorLine(r.stderr()).message).toMatch(
        /^the service answered 429 Too Many Requests and asks to be retried in more than a year; /,
      );
    });

    it('a refused token still outranks it: exit 4', async () => {
      deletes('1', 401, { error: 401, message: 'bad token' });
      service()
        .intercept({ path: '/plants/2', method: 'DELETE' })
        .reply(429, { error: 429, message: 'slow down' }, json);
      const r = await plants(['--retries', '0', 'delete', '1', '2', '3', '--yes', '--json', '--concurrency', '2']);
      expect(r.code).toBe(4);
      expect(errorLine(r.stderr()).code).toBe('auth');
    });
  });

  it('one id that failed: its own exit code, code and status in the JSON line', async () => {
    deletes('1', 409, { error: 9, message: 'in use' });
    const r = await plants(['delete', '1', '--yes', '--json'], { tty: true });
    expect(r.code).toBe(1);
    expect(r.stderr()).not.toMatch(/Deleted/);
    const error = errorLine(r.stderr());
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/409 Conflict: in use/);
  });
});

describe('the deletion journal', () => {
  const journalFile = () => join(configDir(), 'state', 'deletions.jsonl');
  const records = () =>
    readFileSync(journalFile(), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('a start, then an intent before each DELETE and its outcome after, with its attempts', async () => {
    deletes('1');
    deletes('2', 404, { error: 404, message: 'no such plant' });
    const r = await plants(['delete', '1', '2', '--yes', '--concurrency', '1']);
    expect(r.code).toBe(3);
    const all = records();
    expect(all[0]).toMatchObject({ event: 'start', command: 'delete', plants: 2 });
    expect(all.slice(1).map(({ event, id, result, attempts }) => [event, id, result, attempts])).toEqual([
      ['intent', '1', undefined, undefined],
      ['outcome', '1', 'deleted', 1],
      ['intent', '2', undefined, undefined],
      ['outcome', '2', 'not_found', 1],
    ]);
    expect(all[2]!.request_id).toBe(all[1]!.request_id);
  });

  it('PLANTS_JOURNAL=off (any case, blanks around it) keeps none; any other value stops the run before it reads or sends', async () => {
    deletes('1');
    expect((await plants(['delete', '1', '--yes'], { env: { PLANTS_JOURNAL: ' OFF ' } })).code).toBe(0);
    expect(existsSync(journalFile())).toBe(false);
    const bad = await plants(['delete', '1', '--yes', '--no-journal'], { env: { PLANTS_JOURNAL: 'no' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr()).toBe('plants: invalid PLANTS_JOURNAL "no": expected on or off\n');
    deletes('1');
    expect((await plants(['delete', '1', '--yes'], { env: { PLANTS_JOURNAL: ' On' } })).code).toBe(0);
    expect(records()[0]).toMatchObject({ event: 'start', command: 'delete' });
  });
});

describe('stdout that cannot be written (a full disk)', () => {
  it('the results still go to stderr; the error line says the DELETEs were sent and names the run', async () => {
    deletes('1');
    deletes('2', 404, { error: 44, message: 'no such plant' });
    const r = await plants(['delete', '1', '2', '--yes', '--json', '--concurrency', '1'], { stdoutFails: 'ENOSPC' });
    expect(r.code).toBe(1);
    const lines = r.stderr().trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'plants: DELETE https://plants.test/plants/2 → 404 Not Found: no such plant (error 44)',
      'Deleted 1, not found 1',
    ]);
    expect(lines[2]).toMatch(
      /^plants: could not write to standard output: no space left on device \(ENOSPC\); the DELETEs were sent \(1 deleted, 1 not found\): plants history [0-9a-f-]{36} lists them$/,
    );
    expect(lines).toHaveLength(4);
    expect(errorLine(r.stderr())).toEqual({
      code: 'output',
      status: null,
      message: lines[2]!.replace(/^plants: /, ''),
      request_id: null,
    });
  });

  it('without a journal it says none was kept; a dry run, which sent nothing, names nothing', async () => {
    deletes('1');
    const r = await plants(['delete', '1', '--yes', '--json', '--no-journal'], { stdoutFails: 'EIO' });
    expect(r.code).toBe(1);
    expect(r.stderr()).toMatch(
      /^plants: could not write to standard output: i\/o error \(EIO\); the DELETE was sent \(1 deleted\): no journal was kept\n\{/,
    );
    const dry = await plants(['delete', '1', '--dry-run'], { stdoutFails: 'EIO' });
    expect(dry.code).toBe(1);
    expect(dry.stderr()).toMatch(/plants: could not write to standard output: i\/o error \(EIO\)\n$/);
  });
});

describe('the exit code of every mix of results in one run', () => {
  // Each kind of outcome, how the service produces it, and the result word it gets.
  const KINDS: Record<string, () => [number, string | object] | undefined> = {
    deleted: () => [204, ''],
    not_found: () => [404, { error: 404, message: 'no such plant' }],
    failed: () => [500, { error: 500, message: 'boom' }],
    refused: () => [403, { error: 403, message: 'not yours' }],
    unknown: () => undefined,
  };
  type Kind = string;
  const kinds = Object.keys(KINDS);
  const mixes = Array.from({ length: 2 ** kinds.length - 1 }, (_, bits) =>
    kinds.filter((_, i) => ((bits + 1) >> i) & 1),
  );

  /** The documented rule (docs/scripting.md, "Exit codes of a bulk run"). */
  function expectedExit(mix: Kind[], ignoreMissing: boolean): number {
    if (mix.length === 1) {
      if (mix[0] === 'refused') return 4;
      if (mix[0] === 'not_found') return ignoreMissing ? 0 : 3;
      return mix[0] === 'deleted' ? 0 : 1;
    }
    if (mix.some((kind) => kind === 'failed' || kind === 'refused' || kind === 'unknown')) return 1;
    if (mix.includes('not_found') && !ignoreMissing) return 3;
    return 0;
  }

  it.each(mixes.flatMap((mix) => [false, true].map((ignoreMissing) => [mix.join('+'), ignoreMissing, mix] as const)))(
    '%s, --ignore-missing %s',
    async (_name, ignoreMissing, mix) => {
      mix.forEach((kind, i) => {
        const answer = KINDS[kind]!();
        if (answer === undefined) loses(String(i + 1));
        else deletes(String(i + 1), answer[0], answer[1]);
      });
      const ids = mix.map((_, i) => String(i + 1));
      const r = await plants(['delete', ...ids, '--yes', '--json', ...(ignoreMissing ? ['--ignore-missing'] : [])]);
      const results = JSON.parse(r.stdout()) as JsonResult[];
      expect(results.map((x) => x.result)).toEqual(mix.map((kind) => (kind === 'refused' ? 'failed' : kind)));
      expect(r.code).toBe(expectedExit(mix, ignoreMissing));
    },
  );
});

describe('help and completion', () => {
  it('delete --help: a description, every argument and option described, every example a plants command', async () => {
    const r = await plants(['delete', '--help']);
    expect(r.code).toBe(0);
    const help = r.stdout();
    expect(help).toMatch(/^Usage: plants delete \[options\] \[ids\.\.\.\]\n\nDelete plants by id\n/);
    const section = (name: string) => help.split(`\n${name}:\n`)[1]!.split('\n\n')[0]!.split('\n');
    const terms = [...section('Arguments'), ...section('Options')].filter((line) => /^ {2}\S/.test(line));
    expect(terms.length).toBeGreaterThanOrEqual(9);
    for (const term of terms) expect(term).toMatch(/^ {2}\S.*\S {2,}(?!\(default)\S/);
    const examples = section('Examples');
    expect(examples.length).toBeGreaterThanOrEqual(7);
    for (const example of examples.filter((line) => line !== '')) expect(example).toMatch(/^ {2}(\S.* \| )?plants \S/);
  });

  it('Tab after plants delete offers the ids of the plants, with their names', async () => {
    service()
      .intercept({ path: /^\/plants/, method: 'GET' })
      .reply(200, [{ id: 7, name: 'Fern' }], json);
    const r = await plants(['__complete', '--', 'delete', '']);
    expect(r.stdout()).toContain('7\tFern\n');
  });
});

describe('colour on a terminal', () => {
  /** A run on a terminal with colour on one stream only (fakeIO has colour off everywhere). */
  async function coloured(args: string[], stream: 'stdout' | 'stderr', confirm: boolean[] = []) {
    const text = { stdout: '', stderr: '' };
    const sink = (name: 'stdout' | 'stderr') =>
      new PassThrough().on('data', (chunk: Buffer) => (text[name] += chunk.toString()));
    const stdin = new PassThrough();
    stdin.end();
    const io = createIOStreams(
      { stdin, stdout: sink('stdout'), stderr: sink('stderr') },
      { stdin: true, stdout: true, stderr: true },
      { stdout: stream === 'stdout', stderr: stream === 'stderr' },
      (name, chunk) => (text[name] += chunk),
    );
    const env = { PLANTS_CONFIG_DIR: configDir(), PLANTS_BASE_URL: ORIGIN, PLANTS_TOKEN: TOKEN, PLANTS_RETRIES: '0' };
    const code = await main(args, { io, env, dispatcher: () => agent(), prompter: scriptedPrompter({ confirm }) });
    expect(text.stdout + text.stderr).not.toContain(TOKEN);
    return { code, ...text };
  }
  const list = () =>
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ id: 7, name: 'Fern' }], json);

  it('the confirmation table follows the colour of stderr, where it is written', async () => {
    list();
    const r = await coloured(['delete', '7'], 'stderr', [false]);
    expect(r.code).toBe(2);
    // The header row of the table (the cancel line after it is coloured too).
    expect(r.stderr.split('\n')[0]).toContain('\u001b[');
    list();
    expect((await coloured(['delete', '7'], 'stdout', [false])).stderr).not.toContain('\u001b[');
  });

  it("a dry run's table follows the colour of stdout", async () => {
    list();
    expect((await coloured(['delete', '7', '--dry-run'], 'stdout')).stdout).toContain('\u001b[');
    list();
    expect((await coloured(['delete', '7', '--dry-run'], 'stderr')).stdout).not.toContain('\u001b[');
  });
});
