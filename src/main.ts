import { run } from './cli.js';

await run();
