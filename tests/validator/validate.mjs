// Validates glTF/GLB files with the Khronos glTF-Validator's validateBytes and prints one line per
// error, plus one per issue of a code given with --refuse (whatever its severity), and a summary
// per file. Exit 1 when any file has one of those, else 0. UNUSED_OBJECT on a skin is not refused.
// Usage: node validate.mjs NODE_MODULES_DIR FILE... [--refuse CODE]...
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = process.argv.slice(2);
const refused = new Set();
const files = [];
for (let i = 1; i < args.length; ++i) {
  if (args[i] === '--refuse') refused.add(args[++i]);
  else files.push(args[i]);
}
const validator = createRequire(path.join(args[0], 'index.js'))('gltf-validator');
const severity = ['error', 'warning', 'info', 'hint'];
let failed = 0;
for (const file of files) {
  const report = await validator.validateBytes(new Uint8Array(await readFile(file)), { maxIssues: 0 });
  // A skeleton-only animation file keeps its skin, which no mesh uses, as its source does: that
  // UNUSED_OBJECT is the file's, not marrow's.
  const skinOfNoMesh = (m) => m.code === 'UNUSED_OBJECT' && /^\/skins\/\d+$/.test(m.pointer ?? '');
  const bad = report.issues.messages.filter((m) => m.severity === 0 || (refused.has(m.code) && !skinOfNoMesh(m)));
  for (const m of bad) console.log(`${path.basename(file)}: ${severity[m.severity]} ${m.code} at ${m.pointer ?? ''}: ${m.message}`);
  console.log(`${path.basename(file)}: ${report.issues.numErrors} errors, ${report.issues.numWarnings} warnings`);
  if (bad.length > 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
