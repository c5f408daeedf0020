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
// sideBySide); the median is reported, with the quartiles.
//
// BENCH_CASES picks the groups of cases to run (comma-separated; all by
// default): start-up, large (100,000 plants), huge (300 MB), delete.
// BENCH_RUNS sets the rounds (7; three times as many for start-up).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const plants = join(root, 'bin/plants.js');
const storeBin = join(root, 'bin/plant-store-server.js');
const work = mkdtempSync(join(tmpdir(), 'plants-bench-'));
const TOKEN = 'bench-token-0123456789';
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const { version: UNDICI_VERSION } = JSON.parse(readFileSync(join(root, 'node_modules/undici/package.json'), 'utf8'));
const GROUPS = ['start-up', 'large', 'huge', 'delete'];
const CASES = new Set(process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',') : GROUPS);
for (const name of CASES) {
  if (!GROUPS.includes(name)) {
    console.error(`bench: BENCH_CASES: no group ${name} (${GROUPS.join(', ')})`);
    process.exit(2);
  }
}

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

/**
 * Preloaded into every Node process a case starts (NODE_OPTIONS): prints its
 * CPU time (user and system, all threads) as the last line of stderr. On a
 * machine shared with other jobs, waiting for a core inflates wall time, not
 * CPU time.
 */
const cpuReport = join(work, 'cpu-time.cjs');
writeFileSync(
  cpuReport,
  `process.on('exit', () => { const { user, system } = process.cpuUsage(); process.stderr.write('plants-bench-cpu ' + (user + system) / 1000 + '\\n'); });\n`,
);

/** Run a command once: wall milliseconds, CPU milliseconds of the Node processes it started, and peak RSS in MB. */
function once(argv, env = {}) {
  const rssFile = join(work, 'rss');
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, ...argv], {
    env: { ...process.env, ...env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${cpuReport}` },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  const cpu = [...result.stderr.toString().matchAll(/^plants-bench-cpu ([\d.]+)$/gm)];
  return {
    ms,
    cpuMs: cpu.length ? cpu.reduce((sum, match) => sum + Number(match[1]), 0) : undefined,
    rssMb: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024,
  };
}

/** The value a fraction `q` of the way through the sorted values (0.5: the median). */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** The median time and its quartiles, the median CPU time (Node only), and the largest peak RSS of a command's runs. */
function summary(runs) {
  const ms = runs.map((r) => r.ms);
  const cpu = runs.map((r) => r.cpuMs).filter((value) => value !== undefined);
  return {
    ms: quantile(ms, 0.5),
    q1: quantile(ms, 0.25),
    q3: quantile(ms, 0.75),
    cpuMs: cpu.length ? quantile(cpu, 0.5) : undefined,
    rssMb: Math.max(...runs.map((r) => r.rssMb)),
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

/** Start the local plant store (on the reference Node) with `seed` plants; resolves to its URL and a stop function. */
function startStore(seed) {
  return new Promise((resolve, reject) => {
    const child = spawn(reference.bin, [storeBin, '--port', '0', '--seed', String(seed), '--token', TOKEN], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ url: out.split('\n')[0], stop: () => child.kill() });
    });
    child.on('error', reject);
  });
}

/**
 * A server that streams one very large plant list (about `megabytes` MB), for
 * the memory case. It runs in its own process: the timings block this one.
 */
function startHugeList(megabytes) {
  const script = join(work, 'huge-list.mjs');
  writeFileSync(
    script,
    `import { createServer } from 'node:http';
const note = 'x'.repeat(2000);
const count = Math.ceil((${megabytes} * 1024 * 1024) / (note.length + 60));
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  let i = 0;
  const pump = () => {
    while (i < count) {
      const piece = (i === 0 ? '[' : ',') + '{"id":' + i + ',"name":"plant ' + i + '","tag":"t","note":"' + note + '"}' + (i === count - 1 ? ']' : '');
      i += 1;
      if (!res.write(piece)) return res.once('drain', pump);
    }
    res.end();
  };
  pump();
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(reference.bin, [script], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8').once('data', (chunk) => resolve({ url: chunk.trim(), stop: () => child.kill() }));
    child.on('error', reject);
  });
}

/**
 * Copies of the build without a part of the start-up machinery (see
 * build/start-up.ts), to show what each saves: by name, the build's
 * environment and the row's words.
 */
const VARIANTS = {
  'undici-index': { env: { PLANTS_BUILD_UNDICI: 'index' }, row: "undici's index instead of its modules" },
  'no-http2-stand-in': { env: { PLANTS_BUILD_NO_STAND_IN: 'node:http2' }, row: 'node:http2 loaded (no stand-in)' },
  'no-http-stand-in': { env: { PLANTS_BUILD_NO_STAND_IN: 'node:http' }, row: 'node:http loaded (no stand-in)' },
  'no-assert-stand-in': { env: { PLANTS_BUILD_NO_STAND_IN: 'node:assert' }, row: 'node:assert loaded (no stand-in)' },
};

/** Build the variant `name` (VARIANTS); its entry point, started like bin/plants.js. */
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

/** One row per case and baseline; each Node's column holds its median, peak RSS, ratio and verdict. */
const rows = new Map();
function record(node, name, result, { baseline = '', ratio = '', target = '', ok = true } = {}) {
  const key = `${name}\n${baseline}`;
  const row = rows.get(key) ?? { name, baseline, target, results: new Map() };
  rows.set(key, row);
  row.results.set(node.major, { ...result, ratio, ok });
}

const sh = (command) => ['bash', '-c', command];
const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** Every case on one Node, each with its baselines measured on that Node, side by side. */
async function benchOn(node, variantBins) {
  const nodeBin = node.bin;
  const at = (...args) => [nodeBin, ...args];
  const inShell = (args) => `${quote(nodeBin)} ${args.map(quote).join(' ')}`;
  // The code cache (src/code-cache.ts) goes in the bench's own directory; each
  // case's warm-up run makes it, as a user's first run would. Node's own
  // compile cache, for comparison, goes next to it.
  const cache = { XDG_CACHE_HOME: join(work, 'cache') };
  const noCache = { PLANTS_CODE_CACHE: '0' };
  const nodeCache = { PLANTS_CODE_CACHE: '0', NODE_COMPILE_CACHE: join(work, 'node-compile-cache') };
  const env = (url) => ({
    PLANTS_BASE_URL: url,
    PLANTS_TOKEN: TOKEN,
    PLANTS_CONFIG_DIR: work,
    // The deletion journal of the delete cases: here, never the user's own.
    PLANTS_STATE_DIR: join(work, 'state'),
    PLANTS_RETRIES: '0',
    ...cache,
  });
  const ratioRow = (name, result, baselineName, baseline, target, limit) => {
    const ratio = result.ms / baseline.ms;
    record(node, name, result, { baseline: baselineName, ratio, target, ok: limit === undefined || ratio <= limit });
  };

  if (CASES.has('start-up')) {
    // Start-up and a small list, side by side with `node -e 0`.
    const small = await startStore(20);
    const list = ['list', '--json'];
    const variants = Object.keys(VARIANTS);
    const [bare, version, help, helpNodeCache, helpNoCache, listSmall, listNodeCache, listNoCache, ...listVariants] =
      sideBySide(
        [
          { argv: at('-e', '0') },
          { argv: at(plants, '--version'), env: cache },
          { argv: at(plants, '--help'), env: cache },
          { argv: at(plants, '--help'), env: nodeCache },
          { argv: at(plants, '--help'), env: noCache },
          { argv: at(plants, ...list), env: env(small.url) },
          { argv: at(plants, ...list), env: { ...env(small.url), ...nodeCache } },
          { argv: at(plants, ...list), env: { ...env(small.url), ...noCache } },
          // A cache directory each: each build removes the other's data (src/code-cache.ts).
          ...variants.map((name) => ({
            argv: at(variantBins[name], ...list),
            env: { ...env(small.url), XDG_CACHE_HOME: join(work, `cache-${name}`) },
          })),
        ],
        { runs: RUNS * 3 },
      );
    small.stop();
    record(node, 'node -e 0', bare);
    ratioRow('plants --version', version, 'node -e 0', bare, '≤ 1.15x', 1.15);
    ratioRow('plants --help', help, 'node -e 0', bare, '≤ 1.35x', 1.35);
    ratioRow("plants --help, node's compile cache instead", helpNodeCache, 'plants --help', help);
    ratioRow('plants --help, no code cache', helpNoCache, 'plants --help', help);
    ratioRow('plants list --json (20 plants)', listSmall, 'node -e 0', bare, '≤ 1.8x', 1.8);
    ratioRow("plants list --json (20), node's compile cache instead", listNodeCache, 'plants list (20)', listSmall);
    ratioRow('plants list --json (20), no code cache', listNoCache, 'plants list (20)', listSmall);
    variants.forEach((name, index) => {
      ratioRow(`plants list --json (20), ${VARIANTS[name].row}`, listVariants[index], 'plants list (20)', listSmall);
    });
  }
  if (CASES.has('large')) {
    // A large list: 100,000 plants.
    const large = await startStore(100_000);
    const url = `${large.url}/plants?limit=100000`;
    const formats = ['json', 'ndjson', 'tsv', 'table'];
    const [jq, ...results] = sideBySide([
      { argv: sh(`curl -s -H 'Authorization: Bearer ${TOKEN}' '${url}' | jq -c . > /dev/null`) },
      ...formats.map((format) => ({
        argv: sh(`${inShell([plants, 'list', '--limit', '100000', '-o', format])} > /dev/null`),
        env: env(large.url),
      })),
    ]);
    large.stop();
    record(node, 'curl | jq -c . (100,000 plants)', jq);
    const json = results[0];
    formats.forEach((format, index) => {
      const result = results[index];
      if (format === 'table') {
        ratioRow('plants list -o table (100,000)', result, 'plants list -o json', json, '≤ 3x', 3);
        return;
      }
      const ratio = result.ms / jq.ms;
      record(node, `plants list -o ${format} (100,000)`, result, {
        baseline: 'curl | jq -c .',
        ratio,
        target: '≤ 0.8x, < 250 MB',
        ok: ratio <= 0.8 && result.rssMb < 250,
      });
    });
  }

  if (CASES.has('huge')) {
    // Streaming a list of several hundred MB.
    const huge = await startHugeList(300);
    const streamed = ['json', 'ndjson', 'tsv', 'csv'];
    const [curlHuge, ...hugeResults] = sideBySide(
      [
        { argv: sh(`curl -s '${huge.url}/plants' > /dev/null`) },
        // Larger than the default --max-response-size (256 MiB), which stays a deliberate cap.
        ...streamed.map((format) => ({
          argv: sh(`${inShell([plants, 'list', '-o', format, '--max-response-size', '1G'])} > /dev/null`),
          env: env(huge.url),
        })),
      ],
      { runs: 3 },
    );
    huge.stop();
    record(node, 'curl > /dev/null (300 MB list)', curlHuge);
    streamed.forEach((format, index) => {
      const result = hugeResults[index];
      record(node, `plants list -o ${format} (300 MB)`, result, {
        baseline: 'curl',
        ratio: result.ms / curlHuge.ms,
        target: '< 250 MB',
        ok: result.rssMb < 250,
      });
    });
  }

  if (CASES.has('delete')) {
    // Bulk delete of 2,000 plants, each run against a fresh store.
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
          const store = await startStore(2000);
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
    const [xargs, bareUndici, del, delNoJournal] = await againstFreshStores([
      (storeUrl) => ({
        argv: sh(
          `xargs -P 8 -n 1 -I{} curl -s -o /dev/null -X DELETE -H 'Authorization: Bearer ${TOKEN}' '${storeUrl}/plants/{}' < ${ids}`,
        ),
      }),
      (storeUrl) => ({ argv: at(bareUndiciScript, storeUrl) }),
      (storeUrl) => ({ argv: sh(`${inShell([plants, 'delete', '--stdin', '--yes'])} < ${ids}`), env: env(storeUrl) }),
      (storeUrl) => ({
        argv: sh(`${inShell([plants, 'delete', '--stdin', '--yes'])} < ${ids}`),
        env: { ...env(storeUrl), PLANTS_JOURNAL: 'off' },
      }),
    ]);
    record(node, 'xargs -P 8 curl -X DELETE (2,000)', xargs);
    record(node, 'bare undici, 8 in flight (2,000)', bareUndici);
    ratioRow('plants delete --stdin --yes (2,000)', del, 'xargs -P 8 curl', xargs, '≤ 0.1x', 0.1);
    ratioRow('plants delete --stdin --yes (2,000)', del, 'bare undici', bareUndici, '≤ 2x', 2);
    ratioRow('plants delete (2,000), journal on', del, 'journal off', delNoJournal, '≤ 1.2x', 1.2);
  }
}

try {
  const variantBins = {};
  if (CASES.has('start-up')) for (const name of Object.keys(VARIANTS)) variantBins[name] = buildVariant(name);
  for (const node of nodes) {
    console.error(`bench: ${node.version} (${node.bin})`);
    await benchOn(node, variantBins);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// Only the reference's figures are held to the targets.
const fmt = (n, digits = 0) => (typeof n === 'number' ? n.toFixed(digits) : n);
const header = ['case', 'baseline', 'target'];
for (const node of nodes) {
  header.push(`${node.version} ms (quartiles)`, 'CPU ms', 'MB', 'ratio');
  if (node === reference) header.push('');
}
const table = [...rows.values()].map((row) => {
  const cells = [row.name, row.baseline, row.target];
  for (const node of nodes) {
    const result = row.results.get(node.major);
    const ms = result ? `${fmt(result.ms)} (${fmt(result.q1)}–${fmt(result.q3)})` : '';
    cells.push(
      ms,
      fmt(result?.cpuMs ?? ''),
      fmt(result?.rssMb),
      result?.ratio === '' ? '' : `${fmt(result?.ratio, 2)}x`,
    );
    if (node === reference) cells.push(row.target ? (result?.ok ? 'ok' : 'MISSED') : '');
  }
  return cells;
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
// Markdown, so the table can go into docs/performance.md as it is: a | inside a cell is escaped.
const line = (cells) => `| ${cells.map((c, i) => String(c).replaceAll('|', '\\|').padEnd(widths[i])).join(' | ')} |`;
const cpu = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})`;
console.log(
  `plants bench, ${new Date().toISOString().slice(0, 10)}, reference node ${reference.version}, undici ${UNDICI_VERSION}, ${cpu}, ${RUNS} rounds per case (${RUNS * 3} for start-up), cases: ${[...CASES].join(', ')}`,
);
for (const note of missing) console.log(`${note}.`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
const missed = [...rows.values()].filter((row) => row.target && !row.results.get(reference.major)?.ok).length;
console.log(
  missed ? `\n${missed} target(s) missed on ${reference.version}` : `\nall targets met on ${reference.version}`,
);
process.exit(missed ? 1 : 0);
