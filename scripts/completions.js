// npm run completions: write completions/ from the built CLI's own
// `plants completion <shell>`, so the checked-in files are exactly what it prints.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = { bash: 'plants.bash', zsh: '_plants', fish: 'plants.fish' };

mkdirSync(`${root}completions`, { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, [`${root}bin/plants.js`, 'completion', shell], { encoding: 'utf8' });
  writeFileSync(`${root}completions/${file}`, script);
  console.log(`completions/${file}`);
}
