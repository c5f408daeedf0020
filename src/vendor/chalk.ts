/** chalk, for colour on a terminal (see src/output/color.ts). A bundle of its own: see build/start-up.ts. */
export { Chalk, supportsColor } from 'chalk';
