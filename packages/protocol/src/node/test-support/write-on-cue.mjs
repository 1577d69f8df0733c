// Test fixture: for each line read on stdin, writes 50 lines of 100 bytes to stdout, then
// "written" to stderr (so the test knows the pipe holds them).
import { createInterface } from 'node:readline';

let round = 0;
createInterface({ input: process.stdin }).on('line', () => {
  round++;
  let text = '';
  for (let i = 0; i < 50; i++) text += `${`round ${round} line ${i}`.padEnd(99, '.')}\n`;
  process.stdout.write(text, () => process.stderr.write('written\n'));
});
