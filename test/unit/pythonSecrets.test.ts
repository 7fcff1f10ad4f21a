// hardcoded-secret: provider formats, private keys, JWTs, key-like names with high-entropy values;
// never placeholders, empty strings or environment reads; messages never contain the value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findSecrets } from '../../server/src/service/python/index';

// Built at run time so that no scanner mistakes this file for a leak.
const j = (...parts: string[]) => parts.join('');
const R = 'q8Zr3LmV0xTb7NcW2yKd5PfH9sJg4AeU';

const FLAGGED: [string, string][] = [
  [`OPENAI = "${j('sk-', 'proj-', R, R)}"`, 'OpenAI'],
  [`key = "${j('sk-', R, 'T3BlbkFJ', R.slice(0, 20))}"`, 'OpenAI'],
  [`client = Anthropic(api_key="${j('sk-', 'ant-', 'api03-', R, R)}")`, 'Anthropic'],
  [`aws = "${j('AKIA', 'Q3ZLMV7XTB2NCW5Y')}"`, 'AWS'],
  [`gh = "${j('ghp', '_', R, 'abcd')}"`, 'GitHub'],
  [`gh = "${j('github', '_pat_', R, '_', R)}"`, 'GitHub'],
  [`slack = "${j('xox', 'b-', '123456789012-', R)}"`, 'Slack'],
  [`g = "${j('AI', 'za', R, 'Ab1')}"`, 'Google'],
  [`stripe.api_key = "${j('sk', '_live_', R)}"`, 'Stripe'],
  [`pem = """${j('-----BEGIN ', 'RSA PRIVATE KEY-----')}\nMIIEow...\n-----END RSA PRIVATE KEY-----"""`, 'private key'],
  [
    `t = "${j('eyJ', 'hbGciOiJIUzI1NiJ9', '.', 'eyJ', 'zdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U')}"`,
    'JSON Web Token',
  ],
  [`api_key = "${R}"`, 'api_key'],
  [`API_TOKEN = "${R.slice(0, 24)}"`, 'API_TOKEN'],
  [`password = "Tr0ub4dor&3x!"`, 'password'],
  [`config["client_secret"] = "${R}"`, 'client_secret'],
  [`settings = {"api_key": "${R}"}`, 'api_key'],
  [`connect(token="${R}")`, 'token'],
  [`self.secret_key = "${R}"`, 'secret_key'],
  [`url = os.getenv("KEY", "${j('sk-', 'proj-', R)}")`, 'OpenAI'],
];

const CLEAN = [
  'api_key = "<API_KEY>"',
  'api_key = ""',
  "api_key = ''",
  'api_key = "your-api-key"',
  'api_key = "YOUR_API_KEY_HERE"',
  'api_key = "xxxxxxxxxxxxxxxx"',
  'password = "changeme"',
  'token = "sk-xxxxxxxxxxxxxxxxxxxxxxxx"',
  'api_key = os.environ["OPENAI_API_KEY"]',
  'api_key = os.getenv("OPENAI_API_KEY")',
  'api_key = os.environ.get("OPENAI_API_KEY", "")',
  'token_count = "12345678901234567890"',
  'max_tokens = 1024',
  'token = "OPENAI_API_KEY"',
  'token_url = "https://example.com/oauth/token"',
  'api_key = "https://example.com/key"',
  'password = "password"',
  'secret = "the secret of the universe"',
  'api_key = "sk-..."',
  'text = "Use sk-proj- keys from the dashboard"',
  'example = "AKIAIOSFODNN7EXAMPLE"',
];

describe('hardcoded-secret', () => {
  for (const [line, what] of FLAGGED) {
    it(`flags ${line.slice(0, 40)}…`, () => {
      const src = `${line}\ndef execute(variables):\n    return ""\n`;
      const p = findSecrets(src);
      assert.equal(p.length, 1, JSON.stringify(p));
      assert.ok(p[0].message.includes(what), p[0].message);
      const literal = src.slice(p[0].start, p[0].end);
      assert.match(literal, /^[rbuRBU]{0,2}("""|"|')/);
      // The message shows a redacted form, never the value.
      const value = literal.replace(/^[rbuRBU]{0,2}("""|"|')|("""|"|')$/g, '');
      assert.ok(!p[0].message.includes(value.slice(4, 16)), `value leaked: ${p[0].message}`);
      assert.match(p[0].message, /…/);
    });
  }
  for (const line of CLEAN) {
    it(`accepts ${line}`, () => {
      assert.deepEqual(findSecrets(`${line}\ndef execute(variables):\n    return ""\n`), []);
    });
  }

  it('redacts as first four … last two', () => {
    const key = j('sk-', 'proj-', R);
    const p = findSecrets(`k = "${key}"\n`);
    assert.ok(p[0].message.includes(`${key.slice(0, 4)}…${key.slice(-2)}`), p[0].message);
  });
});
