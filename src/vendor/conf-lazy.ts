/**
 * What conf loads but calls only for what plants never asks of it: ajv with
 * its formats (and fast-uri beneath them) for a schema, semver for
 * migrations, atomically for writes of its own (plants writes the file
 * itself: src/config/atomic-write.ts), uint8array-extras for an
 * encrypted file and env-paths for a store without a `cwd`. So a run never loads this bundle: the conf bundle holds
 * stand-ins that load it on first use (build/package-stand-ins.ts, LAZY_PACKAGES).
 * Each export is what conf's own import of that module gives it.
 */
export { Ajv2020 } from 'ajv/dist/2020.js';
export { default as ajvFormats } from 'ajv-formats';
export { default as semver } from 'semver';
export { writeFileSync } from 'atomically';
export { concatUint8Arrays, uint8ArrayToString } from 'uint8array-extras';
export { default as envPaths } from 'env-paths';
