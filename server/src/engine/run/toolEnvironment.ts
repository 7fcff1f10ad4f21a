/**
 * The environment variables a tool and pip get: never the editor's or the shell's whole environment
 * (tokens, cloud credentials, SSH agents), only what finding programs, the locale and reaching the
 * network through a proxy need, plus what the caller passes explicitly.
 */
const KEPT = new Set([
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  // Where a proxy re-signs TLS, the machine's CA bundle is what makes HTTPS work; it holds no secret.
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  // Windows cannot start Python without these.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
]);

function kept(name: string): boolean {
  const upper = name.toUpperCase();
  return KEPT.has(upper) || upper.startsWith('LC_');
}

/** `home` is the run's own HOME (a temporary folder), also used as TMPDIR's parent on POSIX. */
export function toolEnvironment(
  base: NodeJS.ProcessEnv,
  home: string,
  extra: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && kept(name)) env[name] = value;
  env.HOME = home;
  if (process.platform === 'win32') env.USERPROFILE = home;
  env.PYTHONUNBUFFERED = '1';
  env.PYTHONIOENCODING = 'utf-8';
  return { ...env, ...extra };
}
