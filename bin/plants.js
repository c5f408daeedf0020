#!/usr/bin/env node
// Before anything else is loaded, in syntax any Node.js can parse: an old
// Node.js gets one clear line and exit 1, not a syntax error or a failure
// deep inside a dependency. The check of node-version.js (the local plant
// store's), written out here: one file fewer for every run to load.
'use strict';
var version = process.versions.node.split('.').map(Number);
if (version[0] > 22 || (version[0] === 22 && version[1] >= 19)) {
  require('../dist/plants.cjs').start();
} else {
  process.stderr.write('plants requires Node.js 22.19 or newer; this is ' + process.version + '\n');
  process.exitCode = 1;
}
