#!/usr/bin/env node
import '../dist/plants.js';
