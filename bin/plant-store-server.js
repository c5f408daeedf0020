#!/usr/bin/env node
// The server is an ES module (it awaits at top level); this file is CommonJS (see package.json here).
void import('../dist/plant-store-server.js');
