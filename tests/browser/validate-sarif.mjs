// Validates SARIF files against the SARIF 2.1.0 JSON schema that Microsoft's sarif-sdk ships in
// the @microsoft/sarif-multitool-linux package (the schema file itself, not a copy of it).
// Usage: node validate-sarif.mjs FILE...   Exit 0: all valid; 1: a file is invalid; 2: setup error.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let schemaPath;
try {
  schemaPath = require.resolve('@microsoft/sarif-multitool-linux/sarif-2.1.0.json');
} catch (e) {
  console.error('SARIF schema package is not installed: run scripts/install-test-deps.sh');
  process.exit(2);
}
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

let bad = 0;
for (const file of process.argv.slice(2)) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`${file}: not JSON: ${e.message}`);
    bad++;
    continue;
  }
  if (validate(doc)) {
    console.log(`${file}: valid SARIF 2.1.0 (${schema.title})`);
  } else {
    bad++;
    for (const err of validate.errors.slice(0, 50)) console.error(`${file}: ${err.instancePath || '/'} ${err.message} ${JSON.stringify(err.params)}`);
  }
}
process.exit(bad ? 1 : 0);
