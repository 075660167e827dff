/**
 * The bare proxy of the proxy benchmark: fastify with @fastify/reply-from as its README shows it,
 * the same library the judging proxy is built on, with no taps, no checks and no observers. Every
 * path goes to the upstream (argv[2]); bodies pass as raw streams. Prints `Listening <url>`.
 * Never started by hand: bench/proxy-bench.ts starts it.
 */
import Fastify from 'fastify';
import replyFrom from '@fastify/reply-from';

const upstream = process.argv[2] ?? '';
const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
await app.register(replyFrom, { base: upstream, disableRequestLogging: true });
app.all('/*', (request, reply) => reply.from(request.raw.url));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.stdout.write(`Listening ${url}\n`);
