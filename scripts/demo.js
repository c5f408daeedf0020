// npm run demo: start the local plant store with sample plants and use the CLI
// against it, in a temporary config directory (never the user's own).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'plants-demo-'));
const token = `demo-${randomBytes(8).toString('hex')}`;
// The deletion journal too goes to the temporary directory, never the user's own.
const env = {
  ...process.env,
  PLANTS_CONFIG_DIR: configDir,
  PLANTS_STATE_DIR: join(configDir, 'state'),
  PLANTS_BASE_URL: '',
  PLANTS_TOKEN: '',
};

const server = spawn(process.execPath, [join(root, 'bin/plant-store-server.js'), '--port', '0', '--seed', '8'], {
  env: { ...process.env, PLANT_STORE_TOKEN: token },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverErr = '';
server.stderr.setEncoding('utf8').on('data', (chunk) => (serverErr = (serverErr + chunk).slice(-4096)));

function cleanUp() {
  server.kill('SIGTERM');
  rmSync(configDir, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

const url = await new Promise((resolve) => {
  // One line, not a stack trace: what the store said last, then stop.
  const failed = (code, signal) => {
    const said = serverErr.trim().split('\n').at(-1);
    console.error(
      `demo: the local plant store stopped before it started (${signal ?? `exit ${code}`})${said ? `: ${said}` : ''}`,
    );
    rmSync(configDir, { recursive: true, force: true });
    process.exit(1);
  };
  server.on('exit', failed);
  let out = '';
  server.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk;
    if (!out.includes('\n')) return;
    server.off('exit', failed);
    resolve(out.split('\n')[0]);
  });
});

/** Show a command as a person would type it, then run it. */
function plants(args, { input, shown } = {}) {
  console.log(`\n$ ${shown ?? `plants ${args.join(' ')}`}`);
  const result = spawnSync(process.execPath, [join(root, 'bin/plants.js'), ...args], {
    // In the demo's own directory: the plan file below is made there, and goes with it.
    cwd: configDir,
    env,
    input,
    stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'],
  });
  if (result.status !== 0) console.log(`(exit code ${result.status})`);
}

console.log(`Local plant store with 8 sample plants at ${url}`);
console.log(`Config directory for this demo: ${configDir}`);
plants(['config', 'set', 'base-url', url]);
// The demo's throwaway token goes to its own config file, never to the user's OS keyring.
plants(['auth', 'login', '--with-token', '--insecure-storage'], {
  input: `${token}\n`,
  shown:
    'echo "$TOKEN" | plants auth login --with-token --insecure-storage   # a demo token: the file, not your keyring',
});
plants(['auth', 'status']);
plants(['list']);
plants(['list', '--limit', '2', '--json']);
plants(['delete', '3', '--yes']);
plants(['delete', '3', '--yes', '--json']);
plants(['list', '--limit', '4']);
// The escape hatch: any request with the same profile (create and fetch one are not in the interface).
plants(['api', '-X', 'POST', '/plants', '-F', 'name=Fern', '-F', 'tag=fern']);
plants(['api', '/plants/2']);
// A deletion a person approves first: plan it, read the plan, apply exactly that.
plants(['prune', '--tag', 'seedling', '--plan', 'plan.json']);
plants(['apply', 'plan.json', '--dry-run']);
plants(['apply', 'plan.json', '--yes']);
plants(['history']);
// The store's own log of the DELETEs it served: the same request ids as the journal's.
// The commands ran synchronously; its log arrives once this process listens again.
const logged = () => serverErr.split('\n').filter((line) => line.includes('DELETE'));
for (const deadline = Date.now() + 5000; logged().length < 3 && Date.now() < deadline;) {
  await sleep(10);
}
console.log('\nThe local plant store logged the DELETEs it served (compare the request ids):');
for (const line of logged()) console.log(`  ${line}`);

cleanUp();
console.log('\nDone; the demo store and its config directory are gone.');
// The README's Quick start, word for word: npx runs the project's own Node.js whatever the system's is.
console.log(
  "\nTry it yourself, as the README's Quick start does:\n" +
    '  npx plant-store-server --seed 20 --token my-token   # prints its URL; leave it running\n' +
    '  # in another terminal, with the URL it printed:\n' +
    '  export PLANTS_BASE_URL=<the URL> PLANTS_TOKEN=my-token\n' +
    '  npx plants list',
);
