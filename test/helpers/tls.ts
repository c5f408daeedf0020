import { runCommand } from './command.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A self-signed certificate, made with openssl in `dir`: for 127.0.0.1
 * unless `names` (subjectAltName entries, `DNS:plants.internal`) says otherwise.
 */
export function selfSignedCertificate(
  dir: string,
  names = ['IP:127.0.0.1'],
): { cert: Buffer; key: Buffer; certPath: string } {
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  runCommand('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyPath,
    '-out',
    certPath,
    '-days',
    '1',
    '-subj',
    `/CN=${names[0]!.slice(names[0]!.indexOf(':') + 1)}`,
    '-addext',
    `subjectAltName=${names.join(',')}`,
  ]);
  return { cert: readFileSync(certPath), key: readFileSync(keyPath), certPath };
}
