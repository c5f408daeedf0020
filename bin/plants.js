#!/usr/bin/env node
if (require('./node-version.js')('plants')) require('../dist/plants.cjs').start();
