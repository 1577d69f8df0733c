// Prints "N passed, N failed, N skipped" from vitest's JSON report (the last line CI reads).
// A test file that failed outside its tests (a failing beforeAll, an import error) counts as one
// failure: vitest reports its tests as skipped.
import { readFileSync } from 'node:fs';

let report;
try {
  report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
} catch (err) {
  console.log(`vitest report missing: ${err.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const brokenFiles = (report.testResults ?? []).filter(
  (file) =>
    file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
);
for (const file of brokenFiles) console.log(`failed outside its tests: ${file.name}\n${file.message ?? ''}`);
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + brokenFiles.length;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
