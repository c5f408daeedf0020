/** conf, for the config file (see src/config/store.ts). A bundle of its own: see README.md. */
export { default as Conf } from 'conf';
