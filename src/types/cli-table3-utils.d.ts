// cli-table3 ships no types for its utils; only its width measure is used.
// The module is CommonJS: its exports arrive as the default export.
declare module 'cli-table3/src/utils.js' {
  const utils: { strlen(this: void, text: string): number };
  export default utils;
}
