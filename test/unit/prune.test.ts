import { describe, expect, it } from 'vitest';
import { inProcess } from '../helpers/in-process.js';
import { scriptedPrompter } from '../helpers/io.js';
import { withoutRequestIds } from '../helpers/results.js';

const TOKEN = 'prune-test-token';
const { plants, service } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };
const GARDEN = [
  { id: 1, name: 'Ficus lyrata', tag: 'weed' },
  { id: 2, name: 'Aloe vera', tag: 'succulent' },
  { id: 3, name: 'Ficus elastica', tag: 'tropical' },
  { id: 4, name: 'Moss', tag: 'moss' },
];
const listed = (body: object = GARDEN, query?: Record<string, string>) =>
  service()
    .intercept({ path: '/plants', method: 'GET', ...(query ? { query } : {}) })
    .reply(200, body, json);
const deleted = (...ids: number[]) => {
  for (const id of ids)
    service()
      .intercept({ path: `/plants/${id}`, method: 'DELETE' })
      .reply(204, '');
};

describe('plants prune', () => {
  it('refuses to run without a filter or --all, before any request', async () => {
    for (const args of [[], ['--limit', '5']]) {
      const r = await plants(['prune', '--yes', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr()).toBe(
        'plants: prune needs a filter (--tag or --name), or --all to delete every plant listed\n',
      );
    }
  });

  it('refuses an empty --tag or --name (an unset variable), before any request', async () => {
    // The service's list would hold a plant with an empty tag and one with an empty name: none is listed or deleted.
    for (const [args, word] of [
      [['--tag', ''], 'tag'],
      [['--tag', 'weed', '--tag', ''], 'tag'],
      [['--name', ''], 'name'],
      [['--name', '', '--all'], 'name'],
      [['--tag', '', '--dry-run'], 'tag'],
    ] as const) {
      const r = await plants(['prune', '--yes', ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout()).toBe('');
      expect(r.stderr()).toBe(
        `plants: invalid --${word}: it must not be empty (is a variable unset?); to delete the plants whose ${word} is empty, run plants list --${word} '' --json | plants delete --stdin --yes\n`,
      );
    }
  });

  it('refuses --name given twice (both, or either?), before any request', async () => {
    for (const command of ['prune', 'list']) {
      const r = await plants([command, '--name', 'apple', '--name', '*', ...(command === 'prune' ? ['--yes'] : [])]);
      expect(r.code, command).toBe(2);
      expect(r.stdout()).toBe('');
      expect(r.stderr()).toBe(
        'plants: --name given twice ("apple" and "*"): give it once; one glob matches several names (* any text, ? one character)\n',
      );
    }
    // An empty first one (an unset variable) is not hidden by a second.
    expect((await plants(['prune', '--name', '', '--name', 'Fi*', '--yes'])).stderr()).toMatch(/--name given twice/);
  });

  it('still takes a name or tag of blanks as written', async () => {
    listed([...GARDEN, { id: 5, name: ' ', tag: ' ' }, { id: 6, name: '', tag: '' }]);
    deleted(5);
    const r = await plants(['prune', '--tag', ' ', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout()))).toEqual([{ id: '5', result: 'deleted', status: 204 }]);
  });

  it('deletes the plants with any of the tags given, and only those', async () => {
    listed();
    deleted(1, 4);
    const r = await plants(['prune', '--tag', 'weed', '--tag', 'moss', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout()))).toEqual([
      { id: '1', result: 'deleted', status: 204 },
      { id: '4', result: 'deleted', status: 204 },
    ]);
  });

  it('deletes the plants whose name matches the glob', async () => {
    listed();
    deleted(1, 3);
    const r = await plants(['prune', '--name', 'Ficus *', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout())).toMatchObject([{ id: '1' }, { id: '3' }]);
  });

  it('with both filters, deletes what matches both', async () => {
    listed();
    deleted(3);
    const r = await plants(['prune', '--name', 'Ficus*', '--tag', 'tropical', '--yes', '--json']);
    expect(JSON.parse(r.stdout())).toMatchObject([{ id: '3' }]);
  });

  it('--all deletes every plant listed, asking the service for --limit plants', async () => {
    listed(GARDEN.slice(0, 2), { limit: '2' });
    deleted(1, 2);
    const r = await plants(['prune', '--all', '--limit', '2', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout())).toMatchObject([{ id: '1' }, { id: '2' }]);
  });

  it('--limit keeps the first plants of a service that returns more, and warns', async () => {
    listed(GARDEN, { limit: '1' });
    deleted(1);
    const r = await plants(['prune', '--all', '--limit', '1', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout())).toMatchObject([{ id: '1' }]);
    expect(r.stderr()).toBe('plants: warning: the service returned more plants than --limit 1; showing the first 1\n');
  });

  it('--dry-run piped prints the ids it would delete and sends no DELETE', async () => {
    listed();
    const r = await plants(['prune', '--tag', 'weed', '--tag', 'tropical', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('1\n3\n');
  });

  it('nothing matching is a no-op, exit 0', async () => {
    listed();
    const r = await plants(['prune', '--tag', 'cactus', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe('No plants to delete\n');
  });

  it('on a terminal, shows the matches and asks once before deleting', async () => {
    listed();
    deleted(2);
    const prompter = scriptedPrompter({ confirm: [true] });
    const r = await plants(['prune', '--tag', 'succulent'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.questions).toEqual(['Delete plant 2 from plants.test (profile default)?']);
    expect(r.stderr()).toContain('2   Aloe vera  succulent');
  });

  it('refuses, deleting nothing, when more would go than --max-deletes', async () => {
    listed();
    const r = await plants(['prune', '--name', 'F*', '--yes', '--max-deletes', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/2 plants would be deleted, more than --max-deletes 1; nothing was deleted/);
  });

  it('--max-deletes 50%: of the plants listed (4), before the filters: 2 may go, 3 may not', async () => {
    listed();
    deleted(1, 3);
    const two = await plants(['prune', '--name', 'F*', '--yes', '--max-deletes', '50%']);
    expect(two.code).toBe(0);
    listed();
    const three = await plants(['prune', '--name', '*a*', '--yes', '--max-deletes', '50%', '--json']);
    expect(three.code).toBe(2);
    expect(three.stderr()).toMatch(
      /3 plants would be deleted, more than --max-deletes 50% \(2 of the 4 plants listed\); nothing was deleted/,
    );
    expect(three.stderr()).toMatch(/"code":"refused"/);
  });

  it('--max-deletes 10% of a list that holds 10 plants ten times each: 1 may go, not all ten', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Plant ${i + 1}` }));
    const hundred = Array.from({ length: 10 }, () => ten).flat();
    listed(hundred);
    const all = await plants(['prune', '--all', '--yes', '--max-deletes', '10%', '--json']);
    expect(all.code).toBe(2);
    expect(all.stdout()).toBe('');
    const lines = all.stderr().trimEnd().split('\n');
    const [warned, refused] = [lines[0], lines.at(-1)];
    expect(warned).toBe(
      'plants: warning: the service listed 90 duplicate ids (10 distinct plants in 100 items); a percentage cap counts the distinct plants',
    );
    expect(JSON.parse(refused!)).toMatchObject({
      error: {
        code: 'refused',
        message:
          '10 plants would be deleted, more than --max-deletes 10% (1 of the 10 distinct plants listed); nothing was deleted',
      },
    });
    // Spellings of one id (7, 07, 7.0) are one plant; plants without an id are not counted.
    listed([
      ...ten,
      { id: '07', name: 'Plant 7' },
      { id: '7.0', name: 'Plant 7' },
      { name: 'no id' },
      { name: 'none' },
    ]);
    const spelled = await plants(['prune', '--name', 'Plant 1*', '--yes', '--max-deletes', '10%']);
    expect(spelled.code).toBe(2);
    expect(spelled.stderr()).toBe(
      'plants: warning: the service listed 2 duplicate ids and 2 plants without an id (10 distinct plants in 14 items); a percentage cap counts the distinct plants\n' +
        'plants: 2 plants would be deleted, more than --max-deletes 10% (1 of the 10 distinct plants listed); nothing was deleted\n',
    );
    listed(hundred);
    deleted(3);
    const one = await plants(['prune', '--name', 'Plant 3', '--yes', '--max-deletes', '10%', '--json']);
    expect(one.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(one.stdout()))).toEqual([{ id: '3', result: 'deleted', status: 204 }]);
  });

  it('a list without duplicates is counted and named as before, with no warning', async () => {
    listed();
    const r = await plants(['prune', '--all', '--yes', '--max-deletes', '25%']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: 4 plants would be deleted, more than --max-deletes 25% (1 of the 4 plants listed); nothing was deleted\n',
    );
  });

  it('needs --yes when not on a terminal, before listing', async () => {
    const r = await plants(['prune', '--tag', 'weed']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe('plants: --yes is required when not running interactively\n');
  });

  it('names a matching plant without an id by its position and name, deleting nothing', async () => {
    listed([
      { id: 1, name: 'Ficus', tag: 'weed' },
      { name: 'Nameless one', tag: 'weed' },
    ]);
    const r = await plants(['prune', '--tag', 'weed', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/^plants: matching plant 2 \("Nameless one"\) has no usable "id"/);
  });

  it('a matching plant whose id cannot be sent stops the run before any DELETE, saying to narrow the filters', async () => {
    listed([
      { id: 1, name: 'Ficus', tag: 'weed' },
      { id: '..', name: 'Dots', tag: 'weed' },
    ]);
    const r = await plants(['prune', '--tag', 'weed', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: plant id "\.\." is not sent: .*; nothing was deleted: narrow --tag or --name to leave it out, and delete that plant with the service's own tools\n$/,
    );
  });

  it('passes --ignore-missing and --concurrency on to the deletes', async () => {
    listed();
    service().intercept({ path: '/plants/1', method: 'DELETE' }).reply(404, { error: 404, message: 'gone' }, json);
    const r = await plants(['prune', '--tag', 'weed', '--yes', '--json', '--ignore-missing', '--concurrency', '1']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout())).toMatchObject([{ id: '1', result: 'not_found' }]);
  });
});
