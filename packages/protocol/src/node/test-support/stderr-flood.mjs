// Writes argv[2] KiB of numbered stderr lines, then a final line, then exits 0.
const kib = Number(process.argv[2] ?? 64);
let text = '';
for (let i = 0; text.length < kib * 1024; i++) text += `line ${i} of noise\n`;
process.stderr.write(text);
process.stderr.write('FINAL LINE\n', () => process.exit(0));
