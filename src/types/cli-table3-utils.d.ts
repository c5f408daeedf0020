// cli-table3 ships no types for its utils; only its width measure is used, by
// test/unit/table.test.ts to lay a table out as cli-table3 itself would (the
// CLI measures with src/output/width.ts alone).
// The module is CommonJS: its exports arrive as the default export.
declare module 'cli-table3/src/utils.js' {
  const utils: { strlen(this: void, text: string): number };
  export default utils;
}
