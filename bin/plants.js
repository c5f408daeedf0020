#!/usr/bin/env node
require('../dist/plants.cjs').start();
