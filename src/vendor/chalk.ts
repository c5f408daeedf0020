/** chalk, for colour on a terminal (see src/output/color.ts). A bundle of its own: see README.md. */
export { Chalk, supportsColor } from 'chalk';
