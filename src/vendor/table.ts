/** cli-table3, for tables on a terminal (see src/output/table.ts). A bundle of its own: see build/start-up.ts. */
import Table from 'cli-table3';
// Its width measure (wide characters count double), used to pad rows past
// the ones cli-table3 lays out itself. It ships no declarations: see src/types.
import utils from 'cli-table3/src/utils.js';

export { Table };
export const { strlen } = utils;
