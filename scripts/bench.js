// npm run bench: time plants against baselines measured in the same run, and
// fail (exit 1) when a target from the performance issue is missed.
//
// Every command runs under /usr/bin/time for its peak RSS; wall time is
// measured around it, the same way for a case and its baseline. Each case
// runs after a warm-up, in rounds with its baseline (see sideBySide); the
// median is reported.
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

for (const tool of ['curl', 'jq', 'xargs', '/usr/bin/time']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`bench: ${tool} is needed (Debian: apt-get install curl jq findutils time)`);
    process.exit(2);
  }
}

/** Run a command once: wall milliseconds and peak RSS in MB. */
function once(argv, env = {}) {
  const rssFile = join(work, 'rss');
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  return { ms, rssMb: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The median time and the largest peak RSS of a command's runs. */
function summary(runs) {
  return { ms: median(runs.map((r) => r.ms)), rssMb: Math.max(...runs.map((r) => r.rssMb)) };
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

/** Start the local plant store with `seed` plants; resolves to its URL and a stop function. */
function startStore(seed) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [storeBin, '--port', '0', '--seed', String(seed), '--token', TOKEN], {
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
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8').once('data', (chunk) => resolve({ url: chunk.trim(), stop: () => child.kill() }));
    child.on('error', reject);
  });
}

const rows = [];
function record(name, result, baseline, ratio, target, ok) {
  rows.push({ name, ms: result.ms, rssMb: result.rssMb, baseline, ratio, target, ok });
}

const sh = (command) => ['bash', '-c', command];
// The code cache (src/code-cache.ts) goes in the bench's own directory; each
// case's warm-up run makes it, as a user's first run would.
const cache = { XDG_CACHE_HOME: join(work, 'cache') };
const noCache = { PLANTS_CODE_CACHE: '0' };
const env = (url) => ({ PLANTS_BASE_URL: url, PLANTS_TOKEN: TOKEN, PLANTS_CONFIG_DIR: work, PLANTS_RETRIES: '0', ...cache });

try {
  // Start-up and a small list, side by side with `node -e 0`.
  const small = await startStore(20);
  const [node, version, help, helpCold, listSmall, listCold] = sideBySide(
    [
      { argv: [process.execPath, '-e', '0'] },
      { argv: [process.execPath, plants, '--version'], env: cache },
      { argv: [process.execPath, plants, '--help'], env: cache },
      // For reference: what a first run, or PLANTS_CODE_CACHE=0, costs.
      { argv: [process.execPath, plants, '--help'], env: noCache },
      { argv: [process.execPath, plants, 'list', '--json'], env: env(small.url) },
      { argv: [process.execPath, plants, 'list', '--json'], env: { ...env(small.url), ...noCache } },
    ],
    { runs: RUNS * 3 },
  );
  small.stop();
  record('node -e 0', node, '', '', '', true);
  for (const [name, result] of [['plants --version', version], ['plants --help', help]]) {
    const ratio = result.ms / node.ms;
    record(name, result, 'node -e 0', ratio, '≤ 1.2x', ratio <= 1.2);
  }
  record('plants --help, no code cache', helpCold, 'node -e 0', helpCold.ms / node.ms, '', true);
  record('plants list --json (20 plants)', listSmall, 'node -e 0', listSmall.ms / node.ms, '≤ 1.5x', listSmall.ms / node.ms <= 1.5);
  record('plants list --json (20), no code cache', listCold, 'node -e 0', listCold.ms / node.ms, '', true);

  // A large list: 100,000 plants.
  const large = await startStore(100_000);
  const url = `${large.url}/plants?limit=100000`;
  const formats = ['json', 'ndjson', 'tsv', 'table'];
  const [jq, ...results] = sideBySide([
    { argv: sh(`curl -s -H 'Authorization: Bearer ${TOKEN}' '${url}' | jq -c . > /dev/null`) },
    ...formats.map((format) => ({ argv: sh(`node ${plants} list --limit 100000 -o ${format} > /dev/null`), env: env(large.url) })),
  ]);
  record('curl | jq -c . (100,000 plants)', jq, '', '', '', true);
  const json = results[0];
  formats.forEach((format, index) => {
    const result = results[index];
    if (format === 'table') {
      record('plants list -o table (100,000)', result, 'plants list -o json', result.ms / json.ms, '< 3x', result.ms / json.ms < 3);
      return;
    }
    const ratio = result.ms / jq.ms;
    const ok = ratio < 0.8 && result.rssMb < 250;
    record(`plants list -o ${format} (100,000)`, result, 'curl | jq -c .', ratio, '< 0.8x, < 250 MB', ok);
  });
  large.stop();

  // Streaming a list of several hundred MB.
  const huge = await startHugeList(300);
  const streamed = ['json', 'ndjson', 'tsv', 'csv'];
  const [curlHuge, ...hugeResults] = sideBySide(
    [
      { argv: sh(`curl -s '${huge.url}/plants' > /dev/null`) },
      // Larger than the default --max-response-size (256 MiB), which stays a deliberate cap.
      ...streamed.map((format) => ({ argv: sh(`node ${plants} list -o ${format} --max-response-size 1G > /dev/null`), env: env(huge.url) })),
    ],
    { runs: 3 },
  );
  record('curl > /dev/null (300 MB list)', curlHuge, '', '', '', true);
  streamed.forEach((format, index) => {
    const result = hugeResults[index];
    record(`plants list -o ${format} (300 MB)`, result, 'curl', result.ms / curlHuge.ms, '< 250 MB', result.rssMb < 250);
  });
  huge.stop();

  // Bulk delete of 2,000 plants, each run against a fresh store.
  const ids = join(work, 'ids.txt');
  writeFileSync(ids, Array.from({ length: 2000 }, (_, i) => i + 1).join('\n'));
  const bare = join(work, 'bare-undici.mjs');
  writeFileSync(
    bare,
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
  const [xargs, bareUndici, del] = await againstFreshStores([
    (storeUrl) => ({
      argv: sh(`xargs -P 8 -n 1 -I{} curl -s -o /dev/null -X DELETE -H 'Authorization: Bearer ${TOKEN}' '${storeUrl}/plants/{}' < ${ids}`),
    }),
    (storeUrl) => ({ argv: [process.execPath, bare, storeUrl] }),
    (storeUrl) => ({ argv: sh(`node ${plants} delete --stdin --yes < ${ids}`), env: env(storeUrl) }),
  ]);
  record('xargs -P 8 curl -X DELETE (2,000)', xargs, '', '', '', true);
  record('bare undici, 8 in flight (2,000)', bareUndici, '', '', '', true);
  const speedup = xargs.ms / del.ms;
  // This ratio is a speed-up: the baseline's time over plants'.
  record('plants delete --stdin --yes (2,000)', del, 'xargs curl (speed-up)', speedup, '≥ 10x faster', speedup >= 10);
  const vsBare = del.ms / bareUndici.ms;
  record('plants delete --stdin --yes (2,000)', del, 'bare undici', vsBare, '≤ 2x', vsBare <= 2);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const fmt = (n, digits = 0) => (typeof n === 'number' ? n.toFixed(digits) : n);
const header = ['case', 'median ms', 'peak RSS MB', 'baseline', 'ratio', 'target', ''];
const table = rows.map((r) => [r.name, fmt(r.ms), fmt(r.rssMb), r.baseline, r.ratio === '' ? '' : `${fmt(r.ratio, 2)}x`, r.target, r.target ? (r.ok ? 'ok' : 'MISSED') : '']);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
// Markdown, so the table can go into the README as it is: a | inside a cell is escaped.
const line = (cells) => `| ${cells.map((c, i) => String(c).replaceAll('|', '\\|').padEnd(widths[i])).join(' | ')} |`;
console.log(`plants bench, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${RUNS} rounds per case (${RUNS * 3} for start-up)`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
const missed = rows.filter((r) => r.target && !r.ok).length;
console.log(missed ? `\n${missed} target(s) missed` : '\nall targets met');
process.exit(missed ? 1 : 0);
