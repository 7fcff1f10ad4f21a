import { checkCommand, CHECK_USAGE } from './check';
import { runCommand, RUN_USAGE } from './run';
import { testCommand, TEST_USAGE } from './test';
import { uploadCommand, UPLOAD_USAGE } from './upload';
import { VERSION, type Io } from './io';

type Command = (args: readonly string[], io: Io) => Promise<number>;

/** Every subcommand, with the usage line shown by `tooldef --help`. */
const COMMANDS: Record<string, { run: Command; usage: string }> = {
  check: { run: checkCommand, usage: CHECK_USAGE },
  run: { run: runCommand, usage: RUN_USAGE },
  test: { run: testCommand, usage: TEST_USAGE },
  upload: { run: uploadCommand, usage: UPLOAD_USAGE },
};

const USAGE = `tooldef ${VERSION} — checks and runs custom tool definition files.\n\n${Object.values(COMMANDS)
  .map((c) => c.usage)
  .join('\n')}`;

export async function runCli(args: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = args;
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  const entry = command === undefined ? undefined : COMMANDS[command];
  if (!entry) {
    io.stderr.write(command === undefined ? USAGE : `tooldef: unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  return entry.run(rest, io);
}
