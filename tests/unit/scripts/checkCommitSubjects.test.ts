import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { commitSubjectProblems } from '../../../scripts/checkCommitSubjects.js';

let repo: string;
afterEach(() => rmSync(repo, { recursive: true, force: true }));

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
/** Commits nothing but a subject; returns its short hash. */
function commit(subject: string): string {
  git(
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    subject,
    '-m',
    'a body may be as long as it needs '.repeat(10),
  );
  return git('rev-parse', '--short', 'HEAD');
}
function newRepo(): void {
  repo = mkdtempSync(join(tmpdir(), 'subjects-'));
  git('init', '-q');
}

const LONG = `kit: ${'a subject that says everything at once '.repeat(2).trim()}`;

it('checks the subjects after the marker, by characters, and leaves older history alone', () => {
  newRepo();
  commit(LONG);
  const marker = commit(LONG);
  commit('kit: parse answers in exchange');
  // 72 characters with a "§" and an "ã" in them: within the limit, though more bytes.
  const exact = `lint: DESIGN §2 as import zones and the promise rules of the gateways, ã`;
  expect([...exact]).toHaveLength(72);
  commit(exact);
  const long = commit(LONG);
  expect(commitSubjectProblems(repo, marker)).toEqual([`${long}: ${[...LONG].length} characters (at most 72): ${LONG}`]);
});

it('checks only HEAD when the marker is not in the clone', () => {
  newRepo();
  commit(LONG);
  commit('kit: parse answers in exchange');
  expect(commitSubjectProblems(repo, '45a3646')).toEqual([]);
  const long = commit(LONG);
  expect(commitSubjectProblems(repo, '45a3646')).toEqual([`${long}: ${[...LONG].length} characters (at most 72): ${LONG}`]);
});
