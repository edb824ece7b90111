import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The repository explains itself (docs/architecture.md): comments and test titles cite files in it
// (docs/decisions/…, docs/…), never an issue number of a tracker the reader may not have, nor design
// documents kept outside the repository.
const OUTSIDE = /\b[Ii]ssues?[- ]?#?\d|\bDESIGN(?:\.md)? §|\bSTACK-NOTES\b|\bSTYLE\.md\b/;

describe('citations', () => {
  it('no source, test, script or config cites an issue number or a document outside the repository', () => {
    const files = execFileSync(
      'git',
      ['ls-files', '-co', '--exclude-standard', 'src', 'tests', 'scripts', 'bench/*.ts', 'deploy', '.ci', '.env.example', '*.ts', '*.js'],
      { encoding: 'utf8' },
    )
      .split('\n')
      .filter((f) => /\.(ts|tsx|js|mjs|sql|conf|sh|example)$|\/run$/.test(f));
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue; // deleted in the working tree
      }
      text.split('\n').forEach((line, i) => {
        if (OUTSIDE.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
