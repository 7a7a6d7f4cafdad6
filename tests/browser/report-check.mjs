// Opens inductor-lint HTML reports in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) and checks what a person would: the page renders with no console error and no
// network request, a click on a finding shows its kernel source, and no script from the data runs.
// --expect-finding: the page must list a finding about a kernel, whose click shows the kernel source.
// Usage: node report-check.mjs --shots DIR [--expect-finding] [--forbid-text TEXT] [--expect-text TEXT] REPORT.html...
// Prints one JSON line per report; exit 0 when every check passed, 1 otherwise, 2 on setup errors.
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.error('playwright-core is not installed: run scripts/install-test-deps.sh');
  process.exit(2);
}

const args = process.argv.slice(2);
let shots = null, expectFinding = false;
const forbid = [], expectText = [], files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--shots') shots = args[++i];
  else if (args[i] === '--expect-finding') expectFinding = true;
  else if (args[i] === '--forbid-text') forbid.push(args[++i]);
  else if (args[i] === '--expect-text') expectText.push(args[++i]);
  else files.push(args[i]);
}
const executablePath = process.env.ILINT_CHROMIUM || '/usr/bin/chromium';
const userDataDir = mkdtempSync(join(tmpdir(), 'ilint-chromium-'));
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
} catch (e) {
  console.error(`cannot start ${executablePath}: ${e.message}`);
  rmSync(userDataDir, { recursive: true, force: true });
  process.exit(2);
}
if (shots) mkdirSync(shots, { recursive: true });

let failed = 0;
for (const file of files) {
  const page = await context.newPage();
  const problems = [];
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push('pageerror: ' + e.message));
  page.on('dialog', async (d) => { problems.push('a dialog opened (script from the data ran?): ' + d.message()); await d.dismiss(); });
  const url = pathToFileURL(resolve(file)).href;
  page.on('request', (r) => { if (r.url() !== url && !r.url().startsWith('data:')) problems.push('network request: ' + r.url()); });
  await page.goto(url, { waitUntil: 'load' });
  const rendered = await page.evaluate(() => document.body.getAttribute('data-rendered') === 'true');
  if (!rendered) problems.push('the page did not finish rendering (data-rendered not set)');
  const rows = await page.locator('[data-testid=finding-row]').count();
  const result = { file, findings: rows, kernel_source_lines: 0, shot: null };
  if (expectFinding && rows === 0) problems.push('no finding row on the page');
  if (expectFinding && rows > 0 && (await page.locator('[data-testid=finding-row][data-has-kernel=true]').count()) === 0)
    problems.push('no finding on the page links to a kernel');
  const kernelRows = await page.locator('[data-testid=finding-row][data-has-kernel=true]').count();
  result.findings_with_kernel = kernelRows;
  if (rows > 0 && kernelRows === 0) {
    // Only frame-level findings: the detail must still render.
    await page.locator('[data-testid=finding-row]').first().click();
    const detailText = await page.locator('[data-testid=finding-detail]').innerText();
    if (!/User source/.test(detailText)) problems.push('clicking the first finding showed no detail');
  }
  if (kernelRows > 0) {
    await page.locator('[data-testid=finding-row][data-has-kernel=true]').first().click();
    const src = page.locator('[data-testid=finding-detail] [data-testid=kernel-source]');
    if ((await src.count()) === 0) {
      problems.push('clicking the first finding showed no kernel source');
    } else {
      result.kernel_source_lines = await src.locator('.row').count();
      const text = await src.innerText();
      if (!/def |extern "C"|void /.test(text)) problems.push('the kernel source shown has no kernel definition');
      result.primary_lines = await src.locator('.row.primary').count();
      if (result.primary_lines === 0) problems.push('no highlighted finding line in the kernel source');
    }
  }
  const bodyText = await page.evaluate(() => document.body.innerText);
  for (const t of expectText) if (!bodyText.includes(t)) problems.push('expected text not shown: ' + t);
  for (const t of forbid) {
    // Forbidden as markup: an element the data would have created if parsed as HTML.
    const n = await page.evaluate((t) => document.querySelectorAll(t).length, t);
    if (n > 0) problems.push(`data became markup: ${n} element(s) match ${t}`);
  }
  const scripts = await page.evaluate(() => document.querySelectorAll('script').length);
  if (scripts !== 2) problems.push(`expected the 2 scripts of the report, found ${scripts}`);
  if (shots) {
    result.shot = join(shots, basename(file).replace(/\.html?$/, '') + '.png');
    await page.screenshot({ path: result.shot, fullPage: true });
  }
  result.console_errors = consoleErrors;
  result.problems = problems.concat(consoleErrors.map((e) => 'console error: ' + e));
  if (result.problems.length) failed++;
  console.log(JSON.stringify(result));
  await page.close();
}
await context.close();
rmSync(userDataDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
