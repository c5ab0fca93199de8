import { execFileSync } from 'node:child_process';

/**
 * Runs a command-line tool that .ci/run installs from Debian. A missing tool fails the suite, saying so, instead
 * of skipping it: a check that silently did not run would read as a check that passed.
 */
export function runCiTool(tool: string, args: string[], debianPackage: string, options: { cwd?: string } = {}): string {
  try {
    return execFileSync(tool, args, { cwd: options.cwd, stdio: 'pipe', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }).toString();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${tool} is not installed: .ci/run installs it (apt-get install ${debianPackage}); install it the same way to run this suite`, {
        cause: error,
      });
    const failed = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    throw new Error(`${tool} ${args.join(' ')} failed:\n${failed.stdout?.toString() ?? ''}${failed.stderr?.toString() ?? failed.message}`, { cause: error });
  }
}
