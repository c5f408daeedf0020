// npm run bench: time plants against baselines measured in the same run, on
// Node 24 (the reference, whose figures the targets apply to) and on Node 22
// and 26, and fail (exit 1) when a target is missed.
//
// The Node binaries: PLANTS_BENCH_NODE24, PLANTS_BENCH_NODE22 and
// PLANTS_BENCH_NODE26, else node24, node22 and node26 on PATH, else the node
// running the bench when it has that major version. A missing Node 22 or 26
// is said and its column left out; a missing Node 24 stops the bench.
//
// Every command runs under /usr/bin/time for its peak RSS; wall time is
// measured around it, the same way for a case and its baseline. Each case
// runs after a warm-up, in rounds with its baselines, on the same Node (see
// sideBySide). Each time is the median of its rounds, with their
// interquartile range; each ratio the median of the rounds' own ratios (a
// case over its baseline in the same round), with theirs. Each Node process
// a case starts reports its CPU time at exit (cpuReport), whose median is
// printed too: on a shared machine it moves less than wall time.
//
// A list of 20 plants starts three ways: its base URL and token from the
// environment (PLANTS_BASE_URL, PLANTS_TOKEN), from a profile in
// config.json, and with the token in the OS keyring, which the bench gives
// a private Secret Service of its own (a D-Bus session bus and GNOME
// Keyring, as the tests do) when dbus-daemon and gnome-keyring-daemon are
// there; without them the keyring rows are left out, and it says why.
// Copies of the build without one of its start-up devices (VARIANTS), and
// --version answered through the command tree, show what each device saves.
//
// BENCH_CASES picks the groups of cases to run (comma-separated; all by
// default): start-up, large (100,000 plants), huge (300 and 500 MB lists),
// delete; the start-up cases alone take a shared machine's minute rather
// than several. BENCH_RUNS sets the rounds (7; three times as many for
// start-up, half as many again for the lists of 100,000; the huge and
// delete cases always run 3).
//
// --markdown (`npm run bench -- --markdown`): the reference Node's figures
// also go, as one Markdown table (scripts/bench-markdown.ts), between the
// bench markers of docs/performance.md, and are printed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownBlock, replaceBlock } from './bench-markdown.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const unknown = process.argv.slice(2).filter((arg) => arg !== '--markdown');
if (unknown.length > 0) {
  console.error(`bench: unknown argument ${unknown[0]}: the only option is --markdown`);
  process.exit(2);
}
const MARKDOWN = process.argv.includes('--markdown');
const performancePage = join(root, 'docs/performance.md');
// Checked before the run, not after a quarter of an hour: the page has its markers.
if (MARKDOWN) replaceBlock(readFileSync(performancePage, 'utf8'), '');
const plants = join(root, 'bin/plants.js');
const storeBin = join(root, 'bin/plant-store-server.js');
const TOKEN = 'bench-token-0123456789';
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`bench: BENCH_RUNS=${process.env.BENCH_RUNS}: a whole number of rounds, 1 or more`);
  process.exit(2);
}
const { version: UNDICI_VERSION } = JSON.parse(readFileSync(join(root, 'node_modules/undici/package.json'), 'utf8'));
/** The groups of cases, in the order they run (each a function below); BENCH_CASES picks some. */
const GROUPS = { 'start-up': startUpCases, large: largeCases, huge: hugeCases, delete: deleteCases };
const chosen = process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',').map((name) => name.trim()) : [];
for (const name of chosen) {
  if (!Object.hasOwn(GROUPS, name)) {
    console.error(`bench: BENCH_CASES: no group ${name} (${Object.keys(GROUPS).join(', ')})`);
    process.exit(2);
  }
}
if (process.env.PLANTS_BENCH_CASES !== undefined) {
  console.error('bench: PLANTS_BENCH_CASES is now BENCH_CASES (start-up, large, huge, delete; comma-separated)');
  process.exit(2);
}
const groups = Object.keys(GROUPS).filter((name) => chosen.length === 0 || chosen.includes(name));

for (const tool of ['curl', 'jq', 'xargs', '/usr/bin/time']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`bench: ${tool} is needed (Debian: apt-get install curl jq findutils time)`);
    process.exit(2);
  }
}

/** The node binary of a major version (see the top of this file), or undefined. */
function findNode(major) {
  const candidates = [
    process.env[`PLANTS_BENCH_NODE${major}`],
    spawnSync('sh', ['-c', `command -v node${major}`], { encoding: 'utf8' }).stdout.trim(),
    process.execPath,
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const version = spawnSync(candidate, ['-p', 'process.version'], { encoding: 'utf8' }).stdout?.trim();
    if (version?.startsWith(`v${major}.`)) return { major, bin: candidate, version };
    if (candidate === process.env[`PLANTS_BENCH_NODE${major}`]) {
      console.error(`bench: PLANTS_BENCH_NODE${major}=${candidate} is ${version || 'not a node binary'}`);
      process.exit(2);
    }
  }
  return undefined;
}

const reference = findNode(24);
if (!reference) {
  console.error('bench: Node 24, the reference, is needed: set PLANTS_BENCH_NODE24 to its node binary');
  process.exit(2);
}
const nodes = [reference];
const missing = [];
for (const major of [22, 26]) {
  const found = findNode(major);
  if (found) nodes.push(found);
  else
    missing.push(`Node ${major} not found (set PLANTS_BENCH_NODE${major} to its node binary): its column is left out`);
}
for (const line of missing) console.error(`bench: ${line}`);
// Made once every check above has passed: each exit from here on removes it.
const work = mkdtempSync(join(tmpdir(), 'plants-bench-'));
/** Rows left out, and why: printed with the table. */
const skipped = new Set();

/**
 * Preloaded into every Node process a case starts (NODE_OPTIONS): at exit it
 * writes the process's CPU time (user and system, all threads) to stderr.
 * On a machine shared with other jobs, waiting for a core inflates wall
 * time, not CPU time. It writes with fs.writeSync: process.stderr would set
 * up a stream that `plants --version` never does.
 */
const cpuReport = join(work, 'cpu-time.cjs');
writeFileSync(
  cpuReport,
  `process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  try {
    require('node:fs').writeSync(2, '\\nplants-bench-cpu ' + (user + system) / 1000 + '\\n');
  } catch {
    // A run without its CPU time is left out of that column's median.
  }
});
`,
);
const NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(cpuReport)}`.trim();

/** Run a command once: wall milliseconds, CPU milliseconds of the Node processes it started, and peak RSS in MB. */
function once(argv, env = {}) {
  const rssFile = join(work, 'rss');
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, ...argv], {
    env: { ...process.env, ...env, NODE_OPTIONS },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  const cpu = [...result.stderr.toString().matchAll(/^plants-bench-cpu ([\d.]+)$/gm)];
  return {
    ms,
    cpuMs: cpu.length > 0 ? cpu.reduce((sum, match) => sum + Number(match[1]), 0) : undefined,
    rssMb: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024,
  };
}

/** The `q` quantile of `values` (0.5 the median), interpolated between the two nearest. */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = sorted[Math.floor(at)];
  return below + (sorted[Math.ceil(at)] - below) * (at - Math.floor(at));
}

/** The median of `values` and their interquartile range. */
function spread(values) {
  return { median: quantile(values, 0.5), q1: quantile(values, 0.25), q3: quantile(values, 0.75) };
}

/**
 * The median time (and its spread), the median CPU time (of Node processes
 * only: none for curl), the largest peak RSS, and each round's time, of a
 * command's runs.
 */
function summary(runs) {
  const times = runs.map((r) => r.ms);
  const cpu = runs.map((r) => r.cpuMs).filter((ms) => ms !== undefined);
  return {
    ...spread(times),
    ms: quantile(times, 0.5),
    cpuMs: cpu.length > 0 ? quantile(cpu, 0.5) : undefined,
    rssMb: Math.max(...runs.map((r) => r.rssMb)),
    times,
  };
}

/**
 * Several commands measured side by side: one warm-up each, then `runs`
 * rounds that run each command once, in turn. A case and its baseline thus
 * see the same machine: a drift in speed (another process, the CPU's clock)
 * during the bench moves both, not the ratio.
 */
function sideBySide(commands, { runs = RUNS } = {}) {
  for (const { argv, env = {} } of commands) {
    once(argv, env);
  }
  const samples = commands.map(() => []);
  for (let i = 0; i < runs; i += 1) {
    commands.forEach(({ argv, env = {} }, index) => {
      samples[index].push(once(argv, env));
    });
  }
  return samples.map(summary);
}

/**
 * Start the local plant store (on the reference Node) with `seed` plants, or
 * those of the JSON file `data`; resolves to its URL and a stop function.
 */
function startStore({ seed = 0, data } = {}) {
  return new Promise((resolve, reject) => {
    const args = ['--port', '0', '--seed', String(seed), '--token', TOKEN, ...(data ? ['--data', data] : [])];
    const child = spawn(reference.bin, [storeBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      err += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ url: out.split('\n')[0], stop: () => child.kill() });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`bench: the plant store stopped (${code}): ${err.trim()}`)));
  });
}

/**
 * A --data file of the seeded store's 100,000 plants with ids above 2^53
 * (9007199254740993, then every 7th): the same names and tags, so that the
 * two lists differ in their ids alone. Made once, from the first large store.
 */
let bigIdFile;
function bigIdData(storeUrl) {
  if (bigIdFile) return bigIdFile;
  const listed = spawnSync('curl', ['-sf', '-H', `Authorization: Bearer ${TOKEN}`, `${storeUrl}/plants?limit=100000`], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`bench: curl of the 100,000 plants failed: ${listed.stderr}`);
  const rewritten = JSON.parse(listed.stdout).map((plant, i) => ({
    ...plant,
    id: JSON.rawJSON(String(9007199254740993n + 7n * BigInt(i))),
  }));
  bigIdFile = join(work, 'big-ids.json');
  writeFileSync(bigIdFile, JSON.stringify(rewritten));
  return bigIdFile;
}

/**
 * A server that streams one very large plant list of about `megabytes` MB:
 * plants with a 2,000-character note, after (with `nameMegabytes`) one plant
 * whose name alone is that large. It runs in its own process: the timings
 * block this one.
 */
function startHugeList({ megabytes, nameMegabytes = 0 }) {
  const script = join(work, 'huge-list.mjs');
  writeFileSync(
    script,
    `import { createServer } from 'node:http';
const MB = 1024 * 1024;
const [megabytes, nameMegabytes] = process.argv.slice(2).map(Number);
const note = 'x'.repeat(2000);
const count = Math.ceil(((megabytes - nameMegabytes) * MB) / (note.length + 60));
function* pieces() {
  let id = 0;
  if (nameMegabytes > 0) {
    yield '[{"id":0,"name":"';
    const chunk = 'n'.repeat(MB);
    for (let i = 0; i < nameMegabytes; i += 1) yield chunk;
    yield '","tag":"big"}';
    id = 1;
  }
  for (let i = 0; i < count; i += 1, id += 1) {
    yield (id === 0 ? '[' : ',') + '{"id":' + id + ',"name":"plant ' + id + '","tag":"t","note":"' + note + '"}';
  }
  yield ']';
}
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const body = pieces();
  const pump = () => {
    for (let piece = body.next(); !piece.done; piece = body.next()) {
      if (!res.write(piece.value)) return res.once('drain', pump);
    }
    res.end();
  };
  pump();
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(reference.bin, [script, String(megabytes), String(nameMegabytes)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.setEncoding('utf8').once('data', (chunk) => resolve({ url: chunk.trim(), stop: () => child.kill() }));
    child.on('error', reject);
  });
}

/**
 * A Secret Service of the bench's own: the tests' (test/helpers/secret-service.ts,
 * a private D-Bus session bus and GNOME Keyring on it, its keyrings in the
 * bench's directory; nothing reaches the user's session or keyring).
 * Resolves to the variables that point a process at it and a stop
 * function, or to why there is none (`missing`).
 */
async function startSecretService() {
  if (process.platform !== 'linux') return { missing: `the Secret Service is for Linux, not ${process.platform}` };
  const absent = ['dbus-daemon', 'gnome-keyring-daemon'].filter(
    (program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0,
  );
  if (absent.length > 0) {
    return { missing: `${absent.join(' and ')} not found (Debian: apt-get install dbus gnome-keyring)` };
  }
  const { startSecretService: start } = await import('../test/helpers/secret-service.ts');
  try {
    const service = await start(join(work, 'keyring'));
    return { env: service.env, stop: () => service.close() };
  } catch (err) {
    return { missing: `the Secret Service did not start: ${err.message}` };
  }
}

/**
 * Copies of the build without one of its start-up devices (see
 * build/start-up.ts), to show what each saves: by name, the build's
 * environment, the words of its row, and the run it shows best on
 * (`run`: the list of 20 from the environment by default, `file` from
 * config.json, `help` for --help).
 */
const VARIANTS = {
  'undici-index': { env: { PLANTS_BUILD_UNDICI: 'index' }, row: "undici's index instead of its modules" },
  'no-http2-stand-in': { env: { PLANTS_BUILD_NO_STAND_IN: 'node:http2' }, row: 'node:http2 loaded (no stand-in)' },
  'no-http-assert-stand-ins': {
    env: { PLANTS_BUILD_NO_STAND_IN: 'node:http,node:assert' },
    row: 'node:http and node:assert loaded (no stand-ins)',
  },
  'no-child-process-stand-in': {
    env: { PLANTS_BUILD_NO_STAND_IN: 'node:child_process' },
    row: 'node:child_process loaded (no stand-in)',
    run: 'help',
  },
  'no-crypto-stand-in': {
    env: { PLANTS_BUILD_NO_STAND_IN: 'node:crypto' },
    row: 'node:crypto loaded (no stand-in)',
    run: 'file',
  },
  'no-lazy-packages': {
    env: { PLANTS_BUILD_NO_LAZY_PACKAGES: '1' },
    row: "conf's packages loaded with it (no stand-ins)",
    run: 'file',
  },
  'no-builtin-defaults': {
    env: { PLANTS_BUILD_NO_BUILTIN_DEFAULTS: '1' },
    row: 'default imports of built-ins copied',
    run: 'file',
  },
};

/** Build the variant `name` (VARIANTS); resolves to its entry point, started like bin/plants.js. */
function buildVariant(name) {
  const dist = join(work, `dist-${name}`);
  const built = spawnSync(
    reference.bin,
    [join(root, 'node_modules/tsup/dist/cli-default.js'), '--silent', '--out-dir', dist],
    {
      cwd: root,
      env: { ...process.env, ...VARIANTS[name].env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (built.status !== 0) throw new Error(`bench: the build ${name} failed`);
  const bin = join(work, `plants-${name}.cjs`);
  writeFileSync(bin, `require(${JSON.stringify(join(dist, 'plants.cjs'))}).start();\n`);
  return bin;
}

/** A case's time over its baseline's, round by round (see sideBySide): their median and spread. */
function ratioOf(result, baseline) {
  return spread(result.times.map((ms, round) => ms / baseline.times[round]));
}

/** One row per case and baseline; each Node's column holds its median, peak RSS, ratio and verdict. */
const rows = new Map();
function record(node, name, result, { baseline = '', ratio = '', target = '', limit, ok = true } = {}) {
  const key = `${name}\n${baseline}`;
  const row = rows.get(key) ?? { name, baseline, target, results: new Map() };
  rows.set(key, row);
  row.results.set(node.major, { ...result, ratio, limit, ok });
}

const sh = (command) => ['bash', '-c', command];
const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * Set up a config directory as an operator would: the default profile's
 * base URL, then `auth login` (the keyring unless `insecure`, which keeps
 * the token in config.json). Returns what went wrong, or undefined.
 */
function configure(nodeBin, dir, url, env, { insecure }) {
  const run = (args, input) =>
    spawnSync(nodeBin, [plants, ...args], {
      env: { ...process.env, PLANTS_BASE_URL: undefined, PLANTS_TOKEN: undefined, PLANTS_PROFILE: undefined, ...env },
      input,
      encoding: 'utf8',
      timeout: 60_000,
    });
  const set = run(['config', 'set', 'base-url', url]);
  if (set.status !== 0) return `plants config set base-url failed: ${set.stderr.trim()}`;
  const login = run(['auth', 'login', '--with-token', ...(insecure ? ['--insecure-storage'] : [])], TOKEN);
  if (login.status !== 0) return `plants auth login failed: ${login.stderr.trim()}`;
  const config = readFileSync(join(dir, 'config.json'), 'utf8');
  const where = insecure ? '"token"' : '"token-keyring"';
  if (!config.includes(where)) return `plants auth login kept the token elsewhere: ${login.stderr.trim()}`;
  return undefined;
}

/**
 * What the cases of one Node share: its binary, how to start it directly
 * (`at`) or in a shell (`inShell`), the environments of a run, and `ratioRow`,
 * which records a case over its baseline and whether it meets its target.
 */
function nodeContext(node) {
  const nodeBin = node.bin;
  // The code cache (src/startup/code-cache.ts) goes in the bench's own directory; each
  // case's warm-up run makes it, as a user's first run would. Node's own
  // compile cache, for comparison, goes next to it.
  const cache = { XDG_CACHE_HOME: join(work, 'cache') };
  return {
    node,
    nodeBin,
    at: (...args) => [nodeBin, ...args],
    inShell: (args) => `${quote(nodeBin)} ${args.map(quote).join(' ')}`,
    cache,
    noCache: { PLANTS_CODE_CACHE: '0' },
    nodeCache: { PLANTS_CODE_CACHE: '0', NODE_COMPILE_CACHE: join(work, 'node-compile-cache') },
    env: (url) => ({
      PLANTS_BASE_URL: url,
      PLANTS_TOKEN: TOKEN,
      PLANTS_CONFIG_DIR: work,
      // The deletion journal of the delete cases: here, never the user's own.
      PLANTS_STATE_DIR: join(work, 'state'),
      PLANTS_RETRIES: '0',
      ...cache,
    }),
    /**
     * A case over its baseline, round by round; `limit` the largest ratio
     * and `maxRssMb` the peak RSS it must stay under, to meet its `target`.
     */
    ratioRow: (name, result, baselineName, baseline, { target = '', limit, maxRssMb } = {}) => {
      const ratio = ratioOf(result, baseline);
      record(node, name, result, {
        baseline: baselineName,
        ratio,
        target,
        limit,
        ok: (limit === undefined || ratio.median <= limit) && (maxRssMb === undefined || result.rssMb < maxRssMb),
      });
    },
  };
}

/**
 * Start-up and a small list, side by side with `node -e 0`. The list's
 * base URL and token come from the environment, from a profile in
 * config.json, or (the token) from the OS keyring.
 */
/**
 * The floor of a list's start-up: what undici alone takes, loaded as plants
 * loads it (the build's undici bundle, through the same code cache), to send
 * one GET for 20 plants and print the body as one line of JSON. What a list
 * takes beyond it is plants' own: commander, the settings, the client, the
 * output.
 */
const BARE_REQUEST = `
const dist = ${JSON.stringify(join(root, 'dist'))};
const { Agent } = require(dist + '/plants.cjs').requireBundle(dist + '/vendor/undici.cjs');
const agent = new Agent();
const url = new URL('plants?limit=20', process.env.PLANTS_BASE_URL.replace(/\\/?$/, '/'));
agent
  .request({ origin: url.origin, path: url.pathname + url.search, method: 'GET',
    headers: { authorization: 'Bearer ' + process.env.PLANTS_TOKEN } })
  .then(async (response) => {
    const text = await response.body.text();
    process.stdout.write(JSON.stringify(JSON.parse(text)) + '\\n');
    await agent.destroy();
  });
`;

async function startUpCases({ node, nodeBin, at, cache, noCache, nodeCache, env, ratioRow }, shared) {
  const small = await startStore({ seed: 20 });
  const list = ['list', '--json'];
  const variants = Object.keys(VARIANTS);
  const fromFile = {
    ...env(small.url),
    PLANTS_BASE_URL: undefined,
    PLANTS_TOKEN: undefined,
    PLANTS_PROFILE: undefined,
    PLANTS_CONFIG_DIR: join(work, `config-file-${node.major}`),
  };
  const fileProblem = configure(
    nodeBin,
    fromFile.PLANTS_CONFIG_DIR,
    small.url,
    { ...fromFile, PLANTS_KEYRING: 'off' },
    {
      insecure: true,
    },
  );
  if (fileProblem) throw new Error(`bench: ${fileProblem}`);
  let fromKeyring;
  if (shared.secretService.env) {
    const keyringEnv = {
      ...fromFile,
      PLANTS_KEYRING: undefined,
      PLANTS_CONFIG_DIR: join(work, `config-keyring-${node.major}`),
      ...shared.secretService.env,
    };
    const problem = configure(nodeBin, keyringEnv.PLANTS_CONFIG_DIR, small.url, keyringEnv, { insecure: false });
    if (problem) skipped.add(`the keyring rows on ${node.version}: ${problem}`);
    else fromKeyring = keyringEnv;
  }
  const [
    bare,
    version,
    versionViaTree,
    help,
    helpNodeCache,
    helpNoCache,
    listSmall,
    listNodeCache,
    listNoCache,
    listFile,
    bareRequest,
    ...listVariantsAndKeyring
  ] = sideBySide(
    [
      { argv: at('-e', '0') },
      { argv: at(plants, '--version'), env: cache },
      // Not --version alone: answered by commander, after the command tree loads (src/main.ts).
      { argv: at(plants, '--debug', '--version'), env: cache },
      { argv: at(plants, '--help'), env: cache },
      { argv: at(plants, '--help'), env: nodeCache },
      { argv: at(plants, '--help'), env: noCache },
      { argv: at(plants, ...list), env: env(small.url) },
      { argv: at(plants, ...list), env: { ...env(small.url), ...nodeCache } },
      { argv: at(plants, ...list), env: { ...env(small.url), ...noCache } },
      { argv: at(plants, ...list), env: fromFile },
      { argv: at('-e', BARE_REQUEST), env: env(small.url) },
      // A cache directory each: each build removes the others' data (src/startup/code-cache.ts).
      ...variants.map((name) => ({
        argv: at(shared.variantBins[name], ...(VARIANTS[name].run === 'help' ? ['--help'] : list)),
        env: {
          ...(VARIANTS[name].run === 'file' ? fromFile : env(small.url)),
          XDG_CACHE_HOME: join(work, `cache-${name}`),
        },
      })),
      ...(fromKeyring ? [{ argv: at(plants, ...list), env: fromKeyring }] : []),
    ],
    { runs: RUNS * 3 },
  );
  small.stop();
  const listVariants = listVariantsAndKeyring.slice(0, variants.length);
  const [listKeyring] = listVariantsAndKeyring.slice(variants.length);
  const environment = 'plants list (20), environment';
  record(node, 'node -e 0', bare);
  ratioRow('plants --version', version, 'node -e 0', bare, { target: '≤ 1.15x', limit: 1.15 });
  ratioRow('plants --debug --version (the command tree loaded)', versionViaTree, 'plants --version', version);
  ratioRow('plants --help', help, 'node -e 0', bare, { target: '≤ 1.45x', limit: 1.45 });
  ratioRow("plants --help, node's compile cache instead", helpNodeCache, 'plants --help', help);
  ratioRow('plants --help, no code cache', helpNoCache, 'plants --help', help);
  ratioRow('plants list --json (20 plants), from the environment', listSmall, 'node -e 0', bare, {
    target: '≤ 1.8x',
    limit: 1.8,
  });
  ratioRow('plants list --json (20), from config.json', listFile, environment, listSmall, {
    target: '≤ 1.05x',
    limit: 1.05,
  });
  ratioRow('plants list --json (20), from config.json', listFile, 'node -e 0', bare, { target: '≤ 2.0x', limit: 2.0 });
  if (listKeyring) {
    ratioRow('plants list --json (20), token in the keyring', listKeyring, environment, listSmall);
    ratioRow('plants list --json (20), token in the keyring', listKeyring, 'node -e 0', bare);
  }
  ratioRow('undici alone: one request for 20 plants, printed', bareRequest, 'node -e 0', bare);
  ratioRow('plants list --json (20 plants), from the environment', listSmall, 'undici alone', bareRequest);
  ratioRow("plants list --json (20), node's compile cache instead", listNodeCache, environment, listSmall);
  ratioRow('plants list --json (20), no code cache', listNoCache, environment, listSmall);
  const variantRuns = {
    help: ['plants --help', 'plants --help', help],
    file: ['plants list --json (20), from config.json', 'plants list (20), config.json', listFile],
    environment: ['plants list --json (20)', environment, listSmall],
  };
  variants.forEach((name, index) => {
    const [runName, baselineName, baseline] = variantRuns[VARIANTS[name].run ?? 'environment'];
    ratioRow(`${runName}, ${VARIANTS[name].row}`, listVariants[index], baselineName, baseline);
  });
}

/**
 * Rounds of the lists of 100,000: their targets are ratios within 5 to 10%,
 * and on a shared machine one slow round of 7 moved a median across one.
 */
const LARGE_ROUNDS = Math.ceil(RUNS * 1.5);

/**
 * A large list: 100,000 plants, in each format, against `curl | jq -c .`;
 * and as JSON with ids above 2^53 (kept exact), against the same list with
 * the store's own small ids.
 */
async function largeCases({ node, inShell, env, ratioRow }) {
  const large = await startStore({ seed: 100_000 });
  const bigIds = await startStore({ data: bigIdData(large.url) });
  const url = `${large.url}/plants?limit=100000`;
  const formats = ['json', 'ndjson', 'tsv', 'table'];
  const listAll = (format, storeUrl) => ({
    argv: sh(`${inShell([plants, 'list', '--limit', '100000', '-o', format])} > /dev/null`),
    env: env(storeUrl),
  });
  const [jq, bigIdJson, ...results] = sideBySide(
    [
      { argv: sh(`curl -s -H 'Authorization: Bearer ${TOKEN}' '${url}' | jq -c . > /dev/null`) },
      listAll('json', bigIds.url),
      ...formats.map((format) => listAll(format, large.url)),
    ],
    { runs: LARGE_ROUNDS },
  );
  large.stop();
  bigIds.stop();
  record(node, 'curl | jq -c . (100,000 plants)', jq);
  const json = results[0];
  formats.forEach((format, index) => {
    const result = results[index];
    if (format === 'table') {
      ratioRow('plants list -o table (100,000)', result, 'plants list -o json', json, { target: '≤ 1.5x', limit: 1.5 });
      return;
    }
    ratioRow(`plants list -o ${format} (100,000)`, result, 'curl | jq -c .', jq, {
      target: '≤ 0.8x, < 250 MB',
      limit: 0.8,
      maxRssMb: 250,
    });
  });
  ratioRow('plants list -o json (100,000), ids above 2^53', bigIdJson, 'plants list -o json', json, {
    target: '≤ 1.3x',
    limit: 1.3,
  });
}

/**
 * Lists of several hundred MB, streamed in each format: peak RSS, and the
 * time against `curl > /dev/null`. Each is larger than the default
 * --max-response-size (256 MiB), which stays a deliberate cap.
 */
const HUGE_LISTS = [
  { label: '300 MB', list: { megabytes: 300 }, maxSize: '1G', maxRssMb: 250 },
  { label: '500 MB, many plants', list: { megabytes: 500 }, maxSize: '600MiB', maxRssMb: 1024 },
  { label: '500 MB, one 400 MB name', list: { megabytes: 500, nameMegabytes: 400 }, maxSize: '600MiB', maxRssMb: 1024 },
];

async function hugeCases({ node, inShell, env, ratioRow }) {
  const streamed = ['json', 'ndjson', 'tsv', 'csv'];
  for (const { label, list, maxSize, maxRssMb } of HUGE_LISTS) {
    const huge = await startHugeList(list);
    const [curlHuge, ...hugeResults] = sideBySide(
      [
        { argv: sh(`curl -s '${huge.url}/plants' > /dev/null`) },
        ...streamed.map((format) => ({
          argv: sh(`${inShell([plants, 'list', '-o', format, '--max-response-size', maxSize])} > /dev/null`),
          env: env(huge.url),
        })),
      ],
      { runs: 3 },
    );
    huge.stop();
    record(node, `curl > /dev/null (${label})`, curlHuge);
    streamed.forEach((format, index) => {
      ratioRow(`plants list -o ${format} (${label})`, hugeResults[index], 'curl', curlHuge, {
        target: `< ${maxRssMb} MB`,
        maxRssMb,
      });
    });
  }
}

/** Rounds of the deletes with the journal and without it. */
const JOURNAL_ROUNDS = 11;

/** Bulk delete of 2,000 plants, each run against a fresh store. */
async function deleteCases({ node, at, inShell, env, ratioRow }) {
  const ids = join(work, 'ids.txt');
  writeFileSync(ids, Array.from({ length: 2000 }, (_, i) => i + 1).join('\n'));
  const bareUndiciScript = join(work, 'bare-undici.mjs');
  writeFileSync(
    bareUndiciScript,
    `import { Agent } from ${JSON.stringify(join(root, 'node_modules/undici/index.js'))};
const [base] = process.argv.slice(2);
const agent = new Agent();
const ids = Array.from({ length: 2000 }, (_, i) => i + 1);
let next = 0;
await Promise.all(Array.from({ length: 8 }, async () => {
  while (next < ids.length) {
    const id = ids[next++];
    const { body } = await agent.request({ origin: base, path: '/plants/' + id, method: 'DELETE', headers: { authorization: 'Bearer ${TOKEN}' } });
    await body.dump();
  }
}));
await agent.close();
`,
  );
  /**
   * Side by side (see sideBySide), each run against a fresh store of 2,000
   * plants, started outside the timing; the first round is the warm-up.
   */
  const againstFreshStores = async (builds, runs = 3) => {
    const samples = builds.map(() => []);
    for (let i = 0; i <= runs; i += 1) {
      for (const [index, build] of builds.entries()) {
        const store = await startStore({ seed: 2000 });
        try {
          const { argv, env: extra } = build(store.url);
          const sample = once(argv, extra);
          if (i > 0) samples[index].push(sample);
        } finally {
          store.stop();
        }
      }
    }
    return samples.map(summary);
  };
  const plantsDelete = (storeUrl) => ({
    argv: sh(`${inShell([plants, 'delete', '--stdin', '--yes'])} < ${ids}`),
    env: env(storeUrl),
  });
  const [xargs, bareUndici, del] = await againstFreshStores([
    (storeUrl) => ({
      argv: sh(
        `xargs -P 8 -n 1 -I{} curl -s -o /dev/null -X DELETE -H 'Authorization: Bearer ${TOKEN}' '${storeUrl}/plants/{}' < ${ids}`,
      ),
    }),
    (storeUrl) => ({ argv: at(bareUndiciScript, storeUrl) }),
    plantsDelete,
  ]);
  // The journal's share is a few percent of a run that varies as much from
  // round to round: more rounds than the rest (each takes half a second).
  const [withJournal, delNoJournal] = await againstFreshStores(
    [plantsDelete, (storeUrl) => ({ ...plantsDelete(storeUrl), env: { ...env(storeUrl), PLANTS_JOURNAL: 'off' } })],
    JOURNAL_ROUNDS,
  );
  record(node, 'xargs -P 8 curl -X DELETE (2,000)', xargs);
  record(node, 'bare undici, 8 in flight (2,000)', bareUndici);
  ratioRow('plants delete --stdin --yes (2,000)', del, 'xargs -P 8 curl', xargs, { target: '≤ 0.1x', limit: 0.1 });
  ratioRow('plants delete --stdin --yes (2,000)', del, 'bare undici', bareUndici, { target: '≤ 2x', limit: 2 });
  ratioRow('plants delete (2,000), journal on', withJournal, 'journal off', delNoJournal, {
    target: '≤ 1.2x',
    limit: 1.2,
  });
}

let secretService = { missing: 'not started' };
try {
  // What the start-up cases need on every Node: built and started once.
  const shared = {};
  if (groups.includes('start-up')) {
    shared.variantBins = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, buildVariant(name)]));
    secretService = await startSecretService();
    if (secretService.missing) skipped.add(`the keyring rows: ${secretService.missing}`);
    shared.secretService = secretService;
  }
  for (const node of nodes) {
    console.error(`bench: ${node.version} (${node.bin})`);
    const context = nodeContext(node);
    for (const group of groups) await GROUPS[group](context, shared);
  }
} finally {
  await secretService.stop?.();
  rmSync(work, { recursive: true, force: true });
}

// Only the reference's figures are held to the targets.
const fmt = (n, digits = 0) => (typeof n === 'number' ? n.toFixed(digits) : '');
const header = ['case', 'baseline', 'target'];
for (const node of nodes) {
  header.push(`${node.version} ms`, 'CPU ms', 'MB', 'ratio');
  if (node === reference) header.push('');
}
/** A median and its interquartile range: `55 (53–58)`. */
const withSpread = (figure, digits, unit = '') =>
  figure === undefined || figure === ''
    ? ''
    : `${fmt(figure.median, digits)}${unit} (${fmt(figure.q1, digits)}–${fmt(figure.q3, digits)})`;
const table = [...rows.values()].map((row) => {
  const cells = [row.name, row.baseline, row.target];
  for (const node of nodes) {
    const result = row.results.get(node.major);
    // A third decimal where two would round a ratio onto its target's limit, from either side.
    const onTheLimit = result?.limit !== undefined && Number(fmt(result.ratio.median, 2)) === result.limit;
    cells.push(
      withSpread(result, 0),
      fmt(result?.cpuMs),
      fmt(result?.rssMb),
      withSpread(result?.ratio, onTheLimit ? 3 : 2, 'x'),
    );
    if (node === reference) cells.push(row.target ? (result?.ok ? 'ok' : 'MISSED') : '');
  }
  return cells;
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
// Every Node's columns, as Markdown (a | inside a cell escaped); --markdown writes the reference's alone to the page.
const line = (cells) => `| ${cells.map((c, i) => String(c).replaceAll('|', '\\|').padEnd(widths[i])).join(' | ')} |`;
const cpu = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})`;
console.log(
  `plants bench, ${new Date().toISOString().slice(0, 10)}, reference node ${reference.version}, undici ${UNDICI_VERSION}, ${cpu}, ${RUNS} rounds per case (${RUNS * 3} for start-up, ${LARGE_ROUNDS} for 100,000 plants), cases: ${groups.join(', ')}`,
);
console.log(
  'ms: the median of the rounds (interquartile range); CPU ms: the median CPU time of the Node processes (user and system); ratio: the median of each round’s ratio to its baseline (interquartile range); MB: the largest peak RSS, in MiB.',
);
for (const note of missing) console.log(`${note}.`);
for (const note of skipped) console.log(`Left out, ${note}.`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
if (MARKDOWN) writeMarkdown();
const missed = [...rows.values()].filter((row) => row.target && !row.results.get(reference.major)?.ok).length;
console.log(
  missed ? `\n${missed} target(s) missed on ${reference.version}` : `\nall targets met on ${reference.version}`,
);
process.exit(missed ? 1 : 0);

/** --markdown: the reference Node's rows with a target, as one table in docs/performance.md (and printed). */
function writeMarkdown() {
  const measured = [...rows.values()]
    .map((row) => ({ row, result: row.results.get(reference.major) }))
    .filter(({ row, result }) => row.target && result?.ratio)
    .map(({ row, result }) => ({ ...row, ...result, ratio: result.ratio }));
  const rounds = {
    'start-up': RUNS * 3,
    large: LARGE_ROUNDS,
    huge: 3,
    delete: `3 (journal ${JOURNAL_ROUNDS})`,
  };
  const floor = [...rows.values()].find((row) => row.name === 'node -e 0')?.results.get(reference.major);
  const about = [
    `${cpu}, Node ${reference.version}, undici ${UNDICI_VERSION}; ` +
      `rounds: ${groups.map((group) => `${group} ${rounds[group]}`).join(', ')}` +
      (floor ? `; \`node -e 0\` ${fmt(floor.median)} ms.` : '.'),
    ...[...skipped].map((note) => `Left out: ${note}.`),
  ];
  const block = markdownBlock(about, measured);
  writeFileSync(performancePage, replaceBlock(readFileSync(performancePage, 'utf8'), block));
  console.log(`\n${block}\n\nwritten into docs/performance.md`);
}
