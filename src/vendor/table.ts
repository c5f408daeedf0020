/** cli-table3, for tables on a terminal (see src/output/table.ts). A bundle of its own: see build/start-up.ts. */
import Table from 'cli-table3';
// Its width measure (wide characters count double), used to tell the cells it
// would pad as the terminal shows them (src/output/width.ts knows more wide
// characters and marks). It ships no declarations: see src/types.
import utils from 'cli-table3/src/utils.js';

export { Table };
export const { strlen } = utils;
