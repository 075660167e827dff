// Why each StrykerJS mutant of the typed client that no test detects is left: equivalent (no input tells it
// apart) or unreachable through the client's public surface. Keyed `path line:column mutator`, as the score page
// lists them; publish-client.mjs marks any survivor missing here as not yet explained.

const guardUnreachable =
  "unreachable: every path the client builds starts with '/' (its five fixed paths, `/tryons/` and an " +
  "escaped id, and pollPathOf's result, which starts with the prefix and '/'), and such a path appended to " +
  'a checked base URL stays on its origin; the guard is a second line behind pollPathOf';
const abortAfterRead =
  "equivalent: every early end already destroyed the body, and undici's body destroy aborts the request; " +
  'after a complete answer the abort does nothing (three calls with `if (true)` still shared one ' +
  'keep-alive connection)';
const notJson = (how) => `equivalent: ${how}, so the body is no JSON either way`;
const keyNeverEmpty =
  'unreachable: an empty key is refused at construction (apiKey is required, not blank), and the escaped ' +
  'form of a non-empty key is not empty';

/** @type {Readonly<Record<string, string>>} */
export const clientSurvivorReasons = {
  'src/sdk/client.ts 98:15 StringLiteral':
    "equivalent: undici's request() sends GET when the method is empty (`opts.method || 'GET'`)",
  'src/sdk/client.ts 146:15 StringLiteral':
    "equivalent: undici's request() sends GET when the method is empty (`opts.method || 'GET'`)",
  'src/sdk/on-base.ts 13:7 ConditionalExpression': guardUnreachable,
  'src/sdk/on-base.ts 13:7 LogicalOperator': guardUnreachable,
  'src/sdk/on-base.ts 13:24 StringLiteral': guardUnreachable,
  'src/sdk/on-base.ts 13:32 ConditionalExpression': guardUnreachable,
  'src/sdk/on-base.ts 13:81 BlockStatement': guardUnreachable,
  'src/sdk/on-base.ts 14:26 StringLiteral': guardUnreachable,
  'src/sdk/on-base.ts 26:40 Regex':
    "equivalent for every base URL of the documented form: trailing slashes are gone before, so the path ends in '/' " +
    "only at the root '/', where both give ''; only a dot segment (`/api/v1//.`) would tell them apart",
  'src/sdk/options.ts 55:8 ArrowFunction':
    "not killed: the system clock's reading matters only for giving up, at least 60 s of real polling away; " +
    'the give-up rule itself is tested through an injected clock',
  'src/sdk/redact.ts 17:9 ConditionalExpression': keyNeverEmpty,
  'src/sdk/redact.ts 17:18 StringLiteral':
    `${keyNeverEmpty}; the mutant differs only for a key equal to Stryker's marker text, and every key has ` +
    '`_live_` in it (Authentication 1)',
  'src/sdk/retry-policy.ts 27:69 MethodExpression': "equivalent: Number(' 5 ') is 5; Number trims whitespace itself",
  'src/sdk/retry-policy.ts 33:36 ArithmeticOperator':
    'equivalent: an index past the table falls back to 4 s, which is its last step',
  'src/sdk/send.ts 50:9 ConditionalExpression':
    'equivalent: a body of undefined is sent as no body (`a.body ?? null` in transport.ts)',
  'src/sdk/send.ts 71:103 ArithmeticOperator':
    'unreachable: no public method returns `attempts` of a success (only errors carry it, and those are tested)',
  'src/sdk/send.ts 77:9 ConditionalExpression': 'equivalent: `undefined * 1000 > max` is `NaN > max`, false',
  'src/sdk/transport.ts 59:39 OptionalChaining':
    'equivalent: the listener is added only to a signal that exists, so it never runs without one',
  'src/sdk/transport.ts 60:48 ObjectLiteral':
    "equivalent: a signal fires 'abort' at most once, and the listener is removed when the attempt ends either way",
  'src/sdk/transport.ts 60:56 BooleanLiteral':
    "equivalent: a signal fires 'abort' at most once, and the listener is removed when the attempt ends either way",
  'src/sdk/transport.ts 73:17 StringLiteral':
    'equivalent with undici 7: whenever undici errors a body it gives it a listener of its own (its request ' +
    'handler adds one when it aborts), and a read in progress listens too; with the line removed, 304, 204 and 200 ' +
    'answers declaring 700 MiB, a streamed body over the bound and a dripping one past the deadline left no ' +
    'unhandled error. Kept for other undici versions',
  'src/sdk/transport.ts 77:15 BlockStatement': abortAfterRead,
  'src/sdk/transport.ts 78:11 BooleanLiteral': abortAfterRead,
  'src/sdk/transport.ts 78:11 ConditionalExpression': abortAfterRead,
  'src/sdk/transport.ts 84:55 StringLiteral':
    "equivalent: an error without a code looks up the marker text among the timeout codes, where '' is not either",
  'src/sdk/transport.ts 94:30 StringLiteral': notJson("without a Content-Type the marker text has no 'json' either"),
  'src/sdk/transport.ts 94:54 ConditionalExpression': notJson("JSON.parse('') throws and is caught"),
  'src/sdk/transport.ts 94:63 StringLiteral': notJson('the marker text is no JSON and its parse is caught'),
  'src/sdk/transport.ts 97:11 BlockStatement':
    'equivalent: an empty catch falls off the end of the function, which returns undefined as well',
};
