/** conf, for the config file (see src/config/store.ts). A bundle of its own: see build/start-up.ts. */
export { default as Conf } from 'conf';
