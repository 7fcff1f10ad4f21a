import * as vscode from 'vscode';

/**
 * One integrated terminal per tool, reused by each of its runs (cleared first): output is written to it,
 * Ctrl+C or closing it stops the run in progress.
 */
export class RunTerminal {
  private static readonly byTool = new Map<string, RunTerminal>();
  private readonly write = new vscode.EventEmitter<string>();
  private readonly terminal: vscode.Terminal;
  private readonly opened: Promise<void>;
  private stop: (() => void) | undefined;

  /** The tool (its `key`) whose runs a terminal shows, if it is one of these. */
  static toolOf(terminal: vscode.Terminal): string | undefined {
    for (const [key, t] of RunTerminal.byTool) if (t.terminal === terminal) return key;
    return undefined;
  }

  /** The terminal of the tool at `key`, made (and shown) if it has none open. */
  static of(key: string, name: string): RunTerminal {
    const open = RunTerminal.byTool.get(key);
    if (open && !open.terminal.exitStatus) return open;
    const made = new RunTerminal(key, name);
    RunTerminal.byTool.set(key, made);
    return made;
  }

  private constructor(key: string, name: string) {
    let opened!: () => void;
    this.opened = new Promise<void>((resolve) => (opened = resolve));
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.write.event,
      open: () => opened(),
      close: () => {
        this.stop?.();
        if (RunTerminal.byTool.get(key) === this) RunTerminal.byTool.delete(key);
        this.write.dispose();
      },
      handleInput: (data) => {
        if (data === '\x03') this.stop?.();
      },
    };
    this.terminal = vscode.window.createTerminal({ name: `Run: ${name}`, pty });
  }

  /** Shows the terminal, cleared, for a new run; `stop` stops that run (Ctrl+C, or the terminal closed). */
  async start(stop: () => void): Promise<void> {
    this.terminal.show(true);
    await this.opened;
    this.stop = stop;
    this.write.fire('\x1b[2J\x1b[3J\x1b[H'); // clear the screen and the scrollback: one run's output at a time
  }

  /** Writes text, with terminal line ends. */
  out(text: string): void {
    this.write.fire(text.replace(/\r?\n/g, '\r\n'));
  }

  /** The run is over: Ctrl+C no longer stops anything. */
  done(): void {
    this.stop = undefined;
  }
}
