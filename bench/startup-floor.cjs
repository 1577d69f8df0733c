// The floor of the startup suite (bench/startup.mjs): a bare Node process that draws five lines.
const width = Math.max(20, (process.stdout.columns || 80) - 2);
process.stdout.write(
  `╭${'─'.repeat(width)}╮\n│ line 2 of 5${' '.repeat(width - 12)}│\n╰${'─'.repeat(width)}╯\n line 4 of 5\n line 5 of 5\n`,
);
