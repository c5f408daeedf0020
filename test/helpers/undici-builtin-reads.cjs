// Run by test/unit/undici-modules.test.ts in a process of its own, with the
// undici modules src/vendor/undici.ts imports as arguments and the built-in
// modules the build gives stand-ins (build/start-up.ts) in PLANTS_STAND_INS
// (comma-separated): loads the former, sends one request through their Agent
// as the CLI does (a list), and prints as JSON what undici read from the
// latter: for each one undici loaded, the property paths it read
// (`constants.NGHTTP2_NO_ERROR`; from node:assert, anything but a call).
'use strict';
const http = process.getBuiltinModule('node:http');
const Module = process.getBuiltinModule('node:module');
const { sep } = process.getBuiltinModule('node:path');
// undici's modules, found from this file as the CLI's bundle is built from the project.
const load = Module.createRequire(process.argv[1]);

const standIns = new Set(process.env.PLANTS_STAND_INS.split(','));
const reads = {};
const inUndici = `${sep}node_modules${sep}undici${sep}`;

/** `value`, with every property read under it recorded in `paths` as `prefix.key`. */
function recorded(value, prefix, paths) {
  return new Proxy(value, {
    get(target, key) {
      const path = prefix ? `${prefix}.${String(key)}` : String(key);
      if (!paths.includes(path)) paths.push(path);
      const found = Reflect.get(target, key);
      // Objects are followed (as the stand-ins follow them); functions and values are leaves.
      return found !== null && typeof found === 'object' ? recorded(found, path, paths) : found;
    },
  });
}

const moduleLoad = Module._load;
Module._load = function (request, parent, ...rest) {
  const real = moduleLoad.call(this, request, parent, ...rest);
  const name = request.startsWith('node:') ? request : `node:${request}`;
  if (!standIns.has(name) || !parent?.filename?.includes(inUndici)) return real;
  reads[name] ??= [];
  return recorded(real, '', reads[name]);
};

async function main() {
  const [agentPath, dispatcherPath, requestPath, ...others] = process.argv.slice(2);
  const Agent = load(agentPath);
  const Dispatcher = load(dispatcherPath);
  // As src/vendor/undici.ts gives dispatchers request().
  Object.assign(Dispatcher.prototype, { request: load(requestPath) });
  for (const path of others) load(path);

  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const agent = new Agent({ connect: { timeout: 1000 }, maxHeaderSize: 16 * 1024 });
    const { body } = await agent.request({
      origin: `http://127.0.0.1:${server.address().port}`,
      path: '/plants',
      method: 'GET',
      // With a signal, as each attempt has (src/http/attempt.ts).
      signal: new globalThis.AbortController().signal,
    });
    await body.text();
    await agent.close();
  } finally {
    // Whatever failed, the process ends: the test waits for it.
    server.close();
  }
  process.stdout.write(JSON.stringify(reads));
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
