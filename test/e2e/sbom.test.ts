import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// dist/sbom.cdx.json (scripts/sbom.js, part of `npm run build`) lists what
// is bundled into dist/, which `npm audit` on an installed plants cannot see.

interface Component {
  'bom-ref': string;
  name: string;
  version: string;
  purl: string;
  hashes?: { alg: string; content: string }[];
  licenses?: { license: { id: string } }[];
}
interface Sbom {
  bomFormat: string;
  specVersion: string;
  serialNumber: string;
  metadata: { timestamp?: string; component: Component };
  components: Component[];
  dependencies: { ref: string; dependsOn: string[] }[];
}

const read = <T>(...path: string[]) => JSON.parse(readFileSync(join(ROOT, ...path), 'utf8')) as T;
const sbom = () => read<Sbom>('dist', 'sbom.cdx.json');

/** The packages dist/THIRD-PARTY-LICENSES.md names (its list, from the same metafile): name version (license). */
function noticed(): string[] {
  const notices = readFileSync(join(ROOT, 'dist', 'THIRD-PARTY-LICENSES.md'), 'utf8');
  return [...notices.matchAll(/^- (\S+) (\S+) \((.+)\)$/gm)].map(([, name, version, license]) =>
    [name, version, license].join(' '),
  );
}

/** package-lock.json's entry for each directory of node_modules, by its path. */
const lockPackages = () =>
  read<{ packages: Record<string, { version?: string; integrity?: string }> }>('package-lock.json').packages;

describe('the SBOM (dist/sbom.cdx.json)', () => {
  it('is CycloneDX, about this package, with nothing that differs between two builds', () => {
    const { name, version } = read<{ name: string; version: string }>('package.json');
    const bom = sbom();
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.specVersion).toMatch(/^1\.\d+$/);
    expect(bom.metadata.component).toMatchObject({
      'bom-ref': `${name}@${version}`,
      name,
      version,
      purl: `pkg:npm/${name}@${version}`,
    });
    expect(bom.metadata.timestamp).toBeUndefined();
    // A UUID v5, made from the contents: not random.
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('lists exactly the bundled packages, with their licenses, and not the keyring binding npm installs', () => {
    const components = sbom().components;
    const listed = components.map((c) =>
      [c.name, c.version, c.licenses?.map((l) => l.license.id).join(' OR ')].join(' '),
    );
    expect(listed.sort()).toEqual(noticed().sort());
    const names = components.map((c) => c.name);
    for (const name of ['commander', 'undici', 'conf', 'chalk', 'cli-table3', 'get-east-asian-width'])
      expect(names).toContain(name);
    expect(names).not.toContain('@napi-rs/keyring');
  });

  it('gives each the version in node_modules, its purl, and the hash of its tarball', () => {
    const lock = lockPackages();
    for (const component of sbom().components) {
      // Every directory of node_modules that holds the package: one, or several copies at other versions.
      const dirs = Object.keys(lock).filter((dir) => dir.endsWith(`node_modules/${component.name}`));
      const installed = dirs.filter(
        (dir) =>
          existsSync(join(ROOT, dir, 'package.json')) &&
          read<{ version: string }>(dir, 'package.json').version === component.version,
      );
      expect(installed, component.name).not.toEqual([]);
      expect(component['bom-ref']).toBe(`${component.name}@${component.version}`);
      expect(component.purl).toBe(`pkg:npm/${component.name.replace('@', '%40')}@${component.version}`);
      const integrity = lock[installed[0]!]!.integrity!;
      expect(integrity, component.name).toMatch(/^sha512-/);
      const hex = Buffer.from(integrity.slice('sha512-'.length), 'base64').toString('hex');
      expect(component.hashes).toEqual([{ alg: 'SHA-512', content: hex }]);
    }
  });

  it('says which bundled package needs which, and names no package it does not list', () => {
    const bom = sbom();
    const refs = new Set([bom.metadata.component['bom-ref'], ...bom.components.map((c) => c['bom-ref'])]);
    expect(bom.dependencies.map((d) => d.ref).sort()).toEqual([...refs].sort());
    for (const { dependsOn } of bom.dependencies) for (const ref of dependsOn) expect(refs).toContain(ref);
    const own = bom.dependencies.find((d) => d.ref === bom.metadata.component['bom-ref'])!;
    // What plants itself imports; the rest come through them.
    const direct = ['chalk', 'cli-table3', 'commander', 'conf', 'get-east-asian-width', 'undici'];
    const refOf = (name: string) => bom.components.find((c) => c.name === name)!['bom-ref'];
    expect(own.dependsOn).toEqual(expect.arrayContaining(direct.map(refOf)));
    expect(bom.dependencies.find((d) => d.ref === refOf('cli-table3'))!.dependsOn).toContain(refOf('string-width'));
  });
});
