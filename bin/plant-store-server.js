#!/usr/bin/env node
import '../dist/plant-store-server.js';
