/**
 * `npm run lint:commits`: every commit subject since the rule began is at most 72 characters (CONTRIBUTING.md). The
 * history before MARKER keeps its long subjects. Without the marker (a shallow clone, another history) only HEAD is
 * checked. Exits 1 and names each commit over the limit.
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The last commit before the rule: its subject and every older one stay as they are. */
export const MARKER = '45a3646';
export const MAX_SUBJECT_CHARACTERS = 72;

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function hasCommit(cwd: string, revision: string): boolean {
  try {
    git(cwd, 'cat-file', '-e', `${revision}^{commit}`);
    return true;
  } catch {
    return false;
  }
}

/** One line per commit over the limit: its short hash, its length and its subject. */
export function commitSubjectProblems(cwd: string, marker = MARKER): string[] {
  const range = hasCommit(cwd, marker) ? [`${marker}..HEAD`] : ['-1', 'HEAD'];
  const log = git(cwd, 'log', '--format=%h%x00%s%x00', ...range);
  const problems: string[] = [];
  for (const line of log.split('\0\n').filter(Boolean)) {
    const [hash, subject = ''] = line.split('\0');
    // Characters as a reader counts them, not UTF-16 units: "§" or "ã" is one.
    const length = [...subject].length;
    if (length > MAX_SUBJECT_CHARACTERS) problems.push(`${hash}: ${length} characters (at most ${MAX_SUBJECT_CHARACTERS}): ${subject}`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const cwd = process.cwd();
  const checked = hasCommit(cwd, MARKER) ? `commits after ${MARKER}` : `HEAD only (${MARKER} is not in this clone)`;
  const problems = commitSubjectProblems(cwd);
  if (problems.length) {
    console.error(`commit subjects longer than ${MAX_SUBJECT_CHARACTERS} characters (${checked}):\n  ${problems.join('\n  ')}`);
    console.error('Keep the subject to one line naming the area (`kit: parse answers in exchange`); reasons and measurements go in the body.');
    process.exit(1);
  }
  console.log(`commit subjects: all within ${MAX_SUBJECT_CHARACTERS} characters (${checked})`);
}
