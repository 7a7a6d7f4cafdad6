// Opens inductor-lint HTML reports in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) and checks what a person would: the page renders with no console error and no
// network request, a click on a finding shows its kernel source, and no script from the data runs.
// --expect-finding: the page must list a finding about a kernel, whose click shows the kernel source.
// --open-compile: the compiles must be closed <details> (a large report); opening the last one must
// show its kernel table, and a kernel's click its source.
// --load-timeout S: how long the page may take to load (default 30 s; a report of 100k kernels takes about a minute).
// Usage: node report-check.mjs [--shots DIR] [--expect-finding] [--open-compile] [--load-timeout S] [--forbid-text TEXT] [--expect-text TEXT] REPORT.html...
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
let shots = null, expectFinding = false, openCompile = false, loadTimeoutMs = 30000, viewportShot = false;
const forbid = [], expectText = [], files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--shots') shots = args[++i];
  // the first screen only (a page of thousands of compiles is too tall to shoot whole)
  else if (args[i] === '--viewport-shot') viewportShot = true;
  else if (args[i] === '--expect-finding') expectFinding = true;
  else if (args[i] === '--open-compile') openCompile = true;
  else if (args[i] === '--load-timeout') loadTimeoutMs = Number(args[++i]) * 1000;
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
  const loadStart = Date.now();
  await page.goto(url, { waitUntil: 'load', timeout: loadTimeoutMs });
  const rendered = await page.evaluate(() => document.body.getAttribute('data-rendered') === 'true');
  if (!rendered) problems.push('the page did not finish rendering (data-rendered not set)');
  const rows = await page.locator('[data-testid=finding-row]').count();
  const result = { file, findings: rows, kernel_source_lines: 0, shot: null, load_seconds: (Date.now() - loadStart) / 1000 };
  if (expectFinding && rows === 0) problems.push('no finding row on the page');
  if (expectFinding && rows > 0 && (await page.locator('[data-testid=finding-row][data-has-kernel=true]').count()) === 0)
    problems.push('no finding on the page links to a kernel');
  const kernelRows = await page.locator('[data-testid=finding-row][data-has-kernel=true]').count();
  result.findings_with_kernel = kernelRows;
  // The detail lists the clicked finding's notes under its message, one item each, as many as the
  // page's data holds for it (the row says which finding of the data it shows: data-index).
  const checkNotes = async (withKernel) => {
    const row = withKernel ? page.locator('[data-testid=finding-row][data-has-kernel=true]').first()
                           : page.locator('[data-testid=finding-row]').first();
    const index = Number(await row.getAttribute('data-index'));
    const want = await page.evaluate((index) => {
      const fs = JSON.parse(document.getElementById('report-data').textContent).findings || [];
      return ((fs[index] && fs[index].notes) || []).length;
    }, index);
    const shown = await page.locator('[data-testid=finding-detail] [data-testid=finding-notes] li').count();
    if (shown !== want) problems.push(`the finding's detail shows ${shown} note(s), its data holds ${want}`);
  };
  if (rows > 0 && kernelRows === 0) {
    // Only frame-level findings: the detail must still render.
    await page.locator('[data-testid=finding-row]').first().click();
    const detailText = await page.locator('[data-testid=finding-detail]').innerText();
    if (!/User source/.test(detailText)) problems.push('clicking the first finding showed no detail');
    await checkNotes(false);
  }
  if (kernelRows > 0) {
    await page.locator('[data-testid=finding-row][data-has-kernel=true]').first().click();
    await checkNotes(true);
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
  // Findings first: right after the overview, before the timeline and the compiles.
  const order = await page.evaluate(() => Array.from(document.querySelectorAll('main > section, section')).map((s) => s.id).filter(Boolean));
  if (order.indexOf('findings') !== 1 || order[0] !== 'overview') problems.push('the findings are not the first section after the overview: ' + order.join(', '));
  // Each finding row sits under the group row of its user line; every finding is in one.
  result.finding_groups = await page.locator('[data-testid=finding-group]').count();
  if (rows > 0 && result.finding_groups === 0) problems.push('no group of findings by user line');
  // Backticks in messages become <code>, never shown raw.
  const rawTicks = await page.evaluate(() => Array.from(document.querySelectorAll('[data-testid=finding-row] td:nth-child(3)')).filter((td) => td.textContent.includes('`')).length);
  if (rawTicks > 0) problems.push(`${rawTicks} finding message(s) show raw backticks`);
  // The first finding with a confirmation: its chart's bars and their labels, and the exact lines.
  const confirmed = await page.evaluate(() => {
    const fs = JSON.parse(document.getElementById('report-data').textContent).findings || [];
    return fs.findIndex((f) => f.confirmation && f.confirmation.verdict);
  });
  if (confirmed >= 0) {
    await page.locator(`[data-testid=finding-row][data-index="${confirmed}"]`).click();
    result.confirmation_bars = await page.locator('[data-testid=finding-detail] [data-testid=confirmation-bar]').count();
    result.confirmation_labels = await page.locator('[data-testid=finding-detail] [data-testid=confirmation-chart] text').evaluateAll((ns) => ns.map((n) => n.textContent));
    result.confirmation_exact = await page.locator('[data-testid=finding-detail] [data-testid=confirmation-exact]').count();
  }
  // A group of many findings shows its first rows and one row that opens the rest.
  result.more_rows = await page.locator('[data-testid=finding-group-more]').count();
  if (result.more_rows > 0) {
    await page.locator('[data-testid=finding-group-more] a').first().click();
    result.findings_after_more = await page.locator('[data-testid=finding-row]').count();
  }
  // Compile ids are explained once; each compile links its raw files.
  result.raw_file_links = await page.locator('[data-testid=raw-file]').count();
  if ((await page.locator('[data-testid=compile-ids]').count()) !== 1) problems.push('compile ids are not explained once');
  const bodyText = await page.evaluate(() => document.body.innerText);
  for (const t of expectText) if (!bodyText.includes(t)) problems.push('expected text not shown: ' + t);
  for (const t of forbid) {
    // Forbidden as markup: an element the data would have created if parsed as HTML.
    const n = await page.evaluate((t) => document.querySelectorAll(t).length, t);
    if (n > 0) problems.push(`data became markup: ${n} element(s) match ${t}`);
  }
  // The report's own scripts only: its code, its data block and a data block per compile. A
  // script element the data made would be one more of some other kind.
  const scripts = await page.evaluate(() => Array.from(document.querySelectorAll('script')).map((s) => ({
    type: s.getAttribute('type'), id: s.id, cls: s.className })));
  const code = scripts.filter((s) => s.type === null).length;
  const data = scripts.filter((s) => s.type === 'application/json' && s.id === 'report-data' && s.cls === '').length;
  const blocks = scripts.filter((s) => s.type === 'application/json' && s.id === '' && s.cls === 'report-compile').length;
  if (code !== 1 || data !== 1 || code + data + blocks !== scripts.length)
    problems.push(`expected the report's code, data and compile blocks only, found ${JSON.stringify(scripts.slice(0, 8))} (${scripts.length})`);
  result.compile_blocks = blocks;
  // localize's blocks: each chart, and the mark of the first divergent (or departing) launch
  result.localize_charts = await page.locator('[data-testid=localize-chart]').count();
  result.localize_marks = await page.locator('[data-testid=localize-first]').count();
  if (openCompile) {
    const details = page.locator('[data-testid=compile-details]');
    result.compile_details = await details.count();
    if (result.compile_details === 0) problems.push('no closed compile on the page');
    else {
      const last = details.last();
      if ((await last.locator('[data-testid=kernel-link]').count()) !== 0) problems.push('a closed compile already holds its kernel table');
      await last.locator('summary').click();
      const links = last.locator('[data-testid=kernel-link]');
      // The page fills a compile from its `toggle` event, a task queued after the click returns:
      // on a loaded machine the count right after the click could come first.
      await links.first().waitFor({ state: 'attached', timeout: 10000 }).catch(() => {});
      if ((await links.count()) === 0) problems.push('opening a compile showed no kernel table');
      else {
        await links.first().click();
        result.opened_kernel_source_lines = await page.locator('[data-testid=kernel-view-source] .row').count();
        if (result.opened_kernel_source_lines === 0) problems.push("a kernel's click in an opened compile showed no source");
      }
    }
  }
  if (shots) {
    result.shot = join(shots, basename(file).replace(/\.html?$/, '') + '.png');
    if (viewportShot) await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: result.shot, fullPage: !viewportShot });
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
