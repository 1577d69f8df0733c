// Answers nothing: on its first request it complains on stderr (with colours) and exits with argv[2].
import { createInterface } from 'node:readline';

const code = Number(process.argv[2] ?? 1);
createInterface({ input: process.stdin }).once('line', () => {
  process.stderr.write('starting up\r\n');
  process.stderr.write('\x1b[31mError:\x1b[0m no API key \x1b]0;title\x07configured\x07\n');
  process.exit(code);
});
