import { runCli } from './check';

void runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }).then((code) => {
  process.exitCode = code;
});
