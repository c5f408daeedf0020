/**
 * get-east-asian-width, the East Asian Width of a code point from the
 * Unicode data (see src/output/width.ts). A bundle of its own, loaded only
 * by a run that measures text for a table or aligned columns: see
 * build/start-up.ts.
 */
export { eastAsianWidth } from 'get-east-asian-width';
