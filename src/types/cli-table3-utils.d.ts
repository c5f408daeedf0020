// cli-table3 ships no types for its utils; only its width measure is used.
declare module 'cli-table3/src/utils.js' {
  export function strlen(text: string): number;
}
