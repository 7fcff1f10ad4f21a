// Harness for smoke-testing the packaged extension in a real VS Code: code-server 4.99.4
// (VS Code 1.99.3 server + web workbench) driven by Debian's Chromium through playwright-core.
// See shared/notes/code-server.md for why this, and not @vscode/test-electron, works here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const RESULTS_DIR = join(REPO, 'test-results', 'e2e');
const SETUP_SCRIPT = join(REPO, 'scripts', 'setup-code-server.sh');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Polls `fn` until it returns something truthy; rethrows its last error on timeout. */
export async function waitFor(fn, { timeout = 30_000, interval = 250, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let lastError;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}` + (lastError ? `: ${lastError.message}` : ''),
      );
    }
    await sleep(interval);
  }
}

// What is still running (process group -> signal that ends it) or on disk, cleaned up
// synchronously if this process exits or is signalled before stop()/removeTempDir() ran,
// e.g. when CI or a person interrupts the test.
const liveGroups = new Map();
const tempDirs = new Set();
function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* ESRCH: group already gone */
  }
}
let exitHooksInstalled = false;
function installExitHooks() {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', () => {
    for (const [pgid, sig] of liveGroups) killGroup(pgid, sig);
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
  // Exit explicitly: playwright's own SIGTERM/SIGHUP handlers close the browser but do not
  // exit, which would leave the test hanging. Exiting runs the 'exit' hooks (ours, playwright's).
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => process.exit(128 + constants.signals[sig]));
  }
}

/** A fresh directory under the OS temp dir, removed at exit at the latest. */
export async function makeTempDir(prefix) {
  installExitHooks();
  const dir = await mkdtemp(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export async function removeTempDir(dir) {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  tempDirs.delete(dir);
}

/**
 * Path of code-server's entry.js: $TOOLDEF_CODE_SERVER if set, else whatever the (idempotent,
 * near-instant when done) setup script prints last. Its progress goes to our stderr. Aborting
 * `signal` (e.g. node:test's t.signal on timeout) stops the script's whole process group.
 */
export async function ensureCodeServer({ signal } = {}) {
  if (process.env.TOOLDEF_CODE_SERVER) return process.env.TOOLDEF_CODE_SERVER;
  installExitHooks();
  const child = spawn('bash', [SETUP_SCRIPT], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  // SIGTERM, not SIGKILL, so an interrupted apt-get/dpkg can release its locks.
  liveGroups.set(child.pid, 'SIGTERM');
  const onAbort = () => killGroup(child.pid, 'SIGTERM');
  signal?.addEventListener('abort', onAbort);
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  try {
    const code = await new Promise((res, rej) => child.on('error', rej).on('close', res));
    if (code !== 0) throw new Error(`${SETUP_SCRIPT} failed with exit code ${code}`);
    return out.trim().split('\n').at(-1);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    liveGroups.delete(child.pid);
  }
}

/** A port the kernel just handed out on 127.0.0.1 (tiny race until code-server binds it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.commandCenter.enabled': false,
  'git.enabled': false,
  // The web workbench saves after a delay by default, desktop VS Code does not: test what most users have.
  'files.autoSave': 'off',
};

function tail(file, chars = 3000) {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

/**
 * Installs `vsix` (if given) into fresh temp user-data/extensions dirs and starts code-server on a
 * free loopback port serving `folder`, with `env` added to its environment (which its extension
 * host inherits). Resolves once it answers HTTP. `stop()` kills the whole
 * process group (code-server forks an extension host and a file watcher) and removes the dirs.
 * Its output goes to test-results/e2e/code-server-<port>.log, which survives for CI artifacts.
 */
export async function startCodeServer({ vsix, folder, trust = false, settings = {}, env: extraEnv = {}, entry }) {
  entry ??= await ensureCodeServer();
  const root = await makeTempDir('code-server-e2e-');
  const userData = join(root, 'user-data');
  await mkdir(join(userData, 'User'), { recursive: true });
  await writeFile(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, 'security.workspace.trust.enabled': trust, ...settings }, null, 2),
  );
  // An explicit --config and private XDG dirs keep code-server from writing its default
  // config (with a password) and state under the real $HOME.
  await writeFile(join(root, 'config.yaml'), '');
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_DATA_HOME: join(root, 'xdg-data'),
    XDG_CACHE_HOME: join(root, 'xdg-cache'),
    ...extraEnv,
  };
  const common = [
    entry,
    '--config',
    join(root, 'config.yaml'),
    '--user-data-dir',
    userData,
    '--extensions-dir',
    join(root, 'extensions'),
  ];

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = join(RESULTS_DIR, `code-server-${port}.log`);
  writeFileSync(logFile, '');
  let child;

  const stop = async () => {
    if (child) {
      if (child.exitCode === null && child.signalCode === null) {
        killGroup(child.pid, 'SIGTERM');
        await waitFor(() => child.exitCode !== null || child.signalCode !== null, {
          timeout: 5000,
          what: 'code-server to exit',
        }).catch(() => {});
      }
      // Sweep the rest of the group (extension host, watcher) even if the leader is gone.
      killGroup(child.pid, 'SIGKILL');
      liveGroups.delete(child.pid);
      child = undefined;
    }
    await removeTempDir(root);
  };

  try {
    if (vsix) await run(process.execPath, [...common, '--install-extension', vsix], env, logFile);

    const fd = openSync(logFile, 'a');
    child = spawn(
      process.execPath,
      [
        ...common,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        ...(trust ? [] : ['--disable-workspace-trust']),
        folder,
      ],
      { detached: true, stdio: ['ignore', fd, fd], env },
    );
    closeSync(fd);
    liveGroups.set(child.pid, 'SIGKILL');
    child.unref(); // never keep the test process alive on its own; stop()/exit hooks kill it

    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}`);
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
        return res.status < 500;
      },
      { timeout: 60_000, interval: 300, what: `code-server at ${url}` },
    );
    return { url, port, stop, userData, logFile };
  } catch (e) {
    await stop();
    e.message += `\n--- ${logFile} (tail) ---\n${tail(logFile)}`;
    throw e;
  }
}

/** Runs a short-lived command to completion, appending its output to `logFile`. */
async function run(cmd, args, env, logFile) {
  const fd = openSync(logFile, 'a');
  const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise((res, rej) => child.on('error', rej).on('close', res));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${args.slice(-2).join(' ')} failed with exit code ${code}`);
}

/**
 * Launches headless Chromium on the workbench for `folder` and waits until it renders. With
 * `extensionTests` (a test module exporting `run()`), the workbench is an extension development
 * host for this repository that runs those tests in the server's extension host, passed through
 * the workbench's `payload` parameter; `exitCode` then resolves with the extension host's exit
 * code, which the workbench hands to `window.codeAutomationExit` as it does for VS Code's own
 * automated tests.
 */
/** Debian's Chromium, headless, as every browser suite here runs it. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export async function openWorkbench(url, folder, { extensionTests } = {}) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    let query = `folder=${encodeURIComponent(folder)}`;
    let exitCode;
    if (extensionTests) {
      const remote = (path) => `vscode-remote://${new URL(url).host}${path}`;
      exitCode = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
      const payload = [
        ['extensionDevelopmentPath', remote(REPO.replace(/\/$/, ''))],
        ['extensionTestsPath', remote(extensionTests)],
      ];
      query += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    }
    await page.goto(`${url}/?${query}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    return { browser, page, exitCode };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** Opens a workspace file by name through Quick Open (Ctrl+P), like a person would. */
export async function quickOpen(page, name) {
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  // Early after load the keybinding may not be wired up yet, so retry the shortcut.
  await waitFor(
    async () => {
      if (!(await input.isVisible())) await page.keyboard.press('Control+P');
      return input.waitFor({ state: 'visible', timeout: 2000 }).then(() => true);
    },
    { timeout: 30_000, what: 'Quick Open' },
  );
  await input.fill(name);
  // Results come asynchronously from the file search (ripgrep); Enter before then opens nothing.
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 30_000 });
}

/**
 * Runs a command from the Command Palette by its full title (e.g. `Tool Definition: Set Upload Token`),
 * like a person would: F1, the title, and Enter once the matching row is focused.
 */
export async function runFromPalette(page, title) {
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
  await waitFor(
    async () => {
      await openPalette(page, title);
      const shown = await row.waitFor({ timeout: 3000 }).then(
        () => true,
        () => false,
      );
      if (shown) return true;
      // A command whose `when` clause holds only once the workbench is ready: the list does not
      // refresh while open, so ask again.
      await page.keyboard.press('Escape');
      return false;
    },
    { timeout: 30_000, what: `"${title}" in the Command Palette` },
  );
  await page.keyboard.press('Enter');
}

/** The titles the Command Palette lists for `query` (commands hidden by their `when` clause are absent). */
export async function paletteTitles(page, query) {
  await openPalette(page, query);
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 30_000 });
  const titles = await page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
  await page.keyboard.press('Escape');
  return titles.map((t) => t.replace(/\u00a0/g, ' ').trim());
}

async function openPalette(page, query) {
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await waitFor(
    async () => {
      if (!(await input.isVisible())) await page.keyboard.press('F1');
      return input.waitFor({ state: 'visible', timeout: 2000 }).then(() => true);
    },
    { timeout: 30_000, what: 'the Command Palette' },
  );
  await input.fill(`>${query}`);
}

/** Types `text` into the open input box (a password box too) and accepts it. */
export async function answerInputBox(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(text);
  await page.keyboard.press('Enter');
}

/** A notification toast showing `text` (a string or RegExp). */
export function notification(page, text) {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}

/** Shows the Problems panel (Ctrl+Shift+M toggles it, so only press when it is hidden). */
export async function openProblems(page) {
  const panel = page.locator('.markers-panel');
  await waitFor(
    async () => {
      if (!(await panel.isVisible())) await page.keyboard.press('Control+Shift+M');
      return panel.waitFor({ state: 'visible', timeout: 2000 }).then(() => true);
    },
    { timeout: 30_000, what: 'the Problems panel' },
  );
}

/**
 * The Problems tree as `[{ file, text }]`, one entry per problem row, `file` being the name of
 * the file row it sits under and `text` the row's visible text, e.g.
 * `Unknown placeholder "langauge" tooldef unknown-placeholder [Ln 3, Col 42]` (message, source, code).
 * Only rendered rows are seen (the tree is virtualised), which is plenty for a few problems.
 */
export async function readProblems(page) {
  const rows = await page.locator('.markers-panel .monaco-list-row').evaluateAll((els) =>
    els.map((el) => ({
      index: Number(el.dataset.index),
      level: Number(el.getAttribute('aria-level')),
      name: el.querySelector('.label-name')?.textContent ?? '',
      text: el.innerText.replace(/\s+/g, ' ').trim(),
    })),
  );
  rows.sort((a, b) => a.index - b.index); // DOM order of recycled rows is not display order
  const problems = [];
  let file = '';
  for (const row of rows) {
    if (row.level === 1) file = row.name;
    else problems.push({ file, text: row.text });
  }
  return problems;
}

/** Saves a screenshot of the page to test-results/e2e/<name>.png and returns its path. */
export async function screenshot(page, name) {
  await mkdir(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The packaged extension under test: dist/tooldef.vsix (`npm run package`), or TOOLDEF_VSIX. */
export const VSIX = resolve(process.env.TOOLDEF_VSIX ?? 'dist/tooldef.vsix');

/**
 * Registers a suite's prerequisites test (the packaged extension, code-server installed: minutes on
 * a fresh machine, so a test of its own — node:test counts `before` hooks against the first test's
 * timeout) and returns `workbenchTest(name, { files, trust, settings, env, extensionTests, installed },
 * body)`. Each workbench test writes `files` into a fresh workspace folder, starts code-server with the
 * packaged extension (none with `installed: false`; or, with `extensionTests`, with this repository as
 * the extension under development, see openWorkbench), opens the workbench and runs `body({ page, folder, exitCode, t,
 * userData, serverLog })` (code-server's user data folder, with its logs, and its own output);
 * on failure it keeps a screenshot, and it always stops everything it started.
 */
export function e2eSuite(prefix) {
  let entry;
  test('prerequisites: packaged extension and code-server', { timeout: 15 * 60_000 }, async (t) => {
    assert.ok(
      existsSync(VSIX),
      `No packaged extension at ${VSIX}: run \`npm run package\` first (or set TOOLDEF_VSIX to a .vsix).`,
    );
    entry = await ensureCodeServer({ signal: t.signal });
  });
  return (name, { files, trust = false, settings = {}, env = {}, extensionTests, installed = true }, body) =>
    test(name, { timeout: 4 * 60_000 }, async (t) => {
      if (!entry) return t.skip('prerequisites failed');
      const folder = await makeTempDir(`e2e-${prefix}-`);
      let server, browser, page, exitCode;
      try {
        for (const [file, content] of Object.entries(files)) {
          await writeFile(
            join(folder, file),
            typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n',
          );
        }
        server = await startCodeServer({
          vsix: extensionTests || !installed ? undefined : VSIX,
          folder,
          entry,
          trust,
          settings,
          env,
        });
        ({ browser, page, exitCode } = await openWorkbench(server.url, folder, { extensionTests }));
        // On timeout, closing the browser makes every pending wait fail at once, so cleanup runs now.
        const closeBrowser = () => browser.close().catch(() => {});
        if (t.signal.aborted) await closeBrowser();
        t.signal.addEventListener('abort', closeBrowser);
        await body({ page, folder, exitCode, t, userData: server.userData, serverLog: server.logFile });
      } catch (e) {
        if (page) await screenshot(page, `${prefix}-99-failure`).catch(() => {});
        throw e;
      } finally {
        await browser?.close().catch(() => {});
        await server?.stop();
        await removeTempDir(folder);
      }
    });
}

/** Moves the cursor to line:column (1-based) with Go to Line (`:line:col` in Quick Open). */
export async function goTo(page, line, col) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${line}:${col}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 10_000 });
}
