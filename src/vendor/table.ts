/** cli-table3, for tables on a terminal (see src/output/table.ts). A bundle of its own: see build/start-up.ts. */
import Table from 'cli-table3';

export { Table };
