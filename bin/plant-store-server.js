#!/usr/bin/env node
// The server is an ES module (it awaits at top level); this file is CommonJS (see package.json here).
if (require('./node-version.js')('plant-store-server')) void import('../dist/plant-store-server.js');
