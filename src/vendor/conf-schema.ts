/**
 * What conf needs only for a schema or migrations: ajv with its formats (and
 * fast-uri beneath them) for `schema`, `rootSchema` and `ajvOptions`, semver
 * for `migrations`. plants passes none of them (src/config/open.ts), so a
 * run never loads this bundle: the conf bundle holds stand-ins that load it
 * on first use (build/start-up.ts, LAZY_PACKAGES). Each export is what
 * conf's own import of that module gives it.
 */
export { Ajv2020 } from 'ajv/dist/2020.js';
export { default as ajvFormats } from 'ajv-formats';
export { default as semver } from 'semver';
