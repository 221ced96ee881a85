// The explorer page in a real browser: Debian's chromium, headless, driven
// by playwright-core (no browser download). Run by run.sh (CI) or by
// checker/tests/explore_browser.rs (cargo test, when chromium and
// node_modules are there), against a server given in EXPLORE_URL.
//
// What it shows (issue #13): the page loads from 127.0.0.1; seed 000's
// loop_nest checked with simplifycfg is violated, with a counterexample
// that steps; clicking a table cell highlights its block in both CFG
// pictures and clicking a block highlights its instances; a parse error is
// shown at its line and column; the URL fragment carries the whole state;
// LLVM IR (the language selector) is checked, parsed and shared the same way;
// with a second server started with --allow-tools (EXPLORE_TOOLS_URL), a .cu
// opened in the page is compiled by clang and checked through opt.
// The screenshot of the counterexample goes to SCREENSHOT.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const URL = process.env.EXPLORE_URL;
const SHOT = process.env.SCREENSHOT || 'explorer.png';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHECK_TIMEOUT = 120_000;

assert.ok(URL && URL.startsWith('http://127.0.0.1:'), `EXPLORE_URL must be a 127.0.0.1 URL, got ${URL}`);

// The flags this workplace's chromium needs: no sandbox as root, and no
// background connections (the machine has no network).
const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

async function withPage(fn) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1200 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      // The 422 of a deliberately broken kernel is logged by chromium as a
      // failed resource; anything else is a bug.
      if (m.type() === 'error' && !/status of 422/.test(m.text())) errors.push(`console: ${m.text()}`);
    });
    await fn(page);
    assert.deepEqual(errors, [], 'the page logged errors');
  } finally {
    await browser.close();
  }
}

test('loop_nest with simplifycfg: verdict, counterexample, highlights, screenshot', async () => {
  await withPage(async (page) => {
    await page.goto(URL);
    assert.match(page.url(), /^http:\/\/127\.0\.0\.1:\d+\//);
    await page.waitForSelector('#cfg-before g.cc-block');
    await page.selectOption('#function', 'loop_nest');
    await page.waitForSelector('body[data-ready="loop_nest"]');
    await page.fill('#passes', 'simplifycfg');
    await page.waitForSelector('body[data-ready="loop_nest"]');
    assert.equal(await page.locator('#tables table.trace').count(), 3, 'three trace tables');
    assert.match(await page.textContent('#after-name'), /simplifycfg/);

    // The check.
    await page.click('#check-button');
    await page.waitForSelector('#verdict-word', { timeout: CHECK_TIMEOUT });
    assert.equal((await page.textContent('#verdict-word')).trim(), 'violated');
    assert.match(await page.textContent('#stages'), /simplifycfg: violated/);
    assert.match(await page.textContent('#counterexample'), /convergence at C/);

    // Click a cell of the counterexample's target table: its block is
    // highlighted in both pictures.
    const cell = page.locator('#counterexample table[data-kind="cx-target"] td.inst[data-label="C"]').first();
    await cell.click();
    assert.match(await cell.getAttribute('class'), /\bselected\b/);
    for (const pic of ['before', 'after']) {
      const blocks = page.locator(`#cfg-${pic} g.cc-block.hl`);
      assert.ok(await blocks.count() >= 1, `a block is highlighted in the ${pic} picture`);
      assert.match(await blocks.first().getAttribute('aria-label'), /\bC\b/);
    }
    assert.match(await page.textContent('#status'), /operation C\) is in block/);

    // Click a block: its instances are highlighted in the tables.
    const blockB = page.locator('#cfg-after g.cc-block[aria-label*=": B"]').first();
    await blockB.click();
    const hl = page.locator('table.trace td.hl');
    assert.ok(await hl.count() >= 2, 'the instances of B are highlighted');
    for (const label of await hl.evaluateAll((tds) => tds.map((td) => td.dataset.label))) {
      assert.equal(label, 'B');
    }

    // The keyboard: a focused cell selects with Enter.
    const first = page.locator('#tables table.trace td.inst[data-label="A"]').first();
    await first.focus();
    await page.keyboard.press('Enter');
    assert.ok(await page.locator('#cfg-before g.cc-block.hl').count() >= 1);

    // Step through the counterexample: it opens on the first difference.
    assert.match(await page.textContent('#step-text'), /Step \d+ of \d+: C\. Reference: tid 0 \+ tid 1 together/);
    assert.match(await page.textContent('#step-text'), /does not group these threads/);
    await page.click('#step-prev');
    assert.match(await page.textContent('#step-text'), /same grouping/);
    await page.click('#step-next');
    assert.match(await page.textContent('#step-text'), /: C\./);
    await page.locator('#counterexample').scrollIntoViewIfNeeded();
    await page.screenshot({ path: SHOT, fullPage: true });

    // The whole state is in the URL fragment: a new page opened on it
    // shows the same kernel, function and pipeline.
    await page.waitForFunction(() => location.hash.startsWith('#state='));
    const shared = page.url();
    const other = await page.context().browser().newPage();
    await other.goto(shared);
    await other.waitForSelector('body[data-ready="loop_nest"]');
    assert.equal(await other.inputValue('#passes'), 'simplifycfg');
    assert.equal(await other.inputValue('#function'), 'loop_nest');
    await other.close();
  });
});

test('a parse error is shown at its line and column', async () => {
  await withPage(async (page) => {
    await page.goto(URL);
    await page.waitForSelector('#cfg-before g.cc-block');
    await page.fill('#source', 'void f() {\n  ... // A\n  if (c { }\n}\n');
    await page.waitForSelector('body[data-errors="1"]');
    const d = await page.textContent('#diagnostics');
    assert.match(d, /:3:9: expected `\)` after the `if` condition/);
    assert.equal(await page.textContent('#backdrop mark.err'), '{');
    assert.equal(await page.textContent('#gutter .err'), '3');
    // Fixing it brings the pictures back.
    await page.fill('#source', 'void f() {\n  ... // A\n  if (c) { }\n}\n');
    await page.waitForSelector('body[data-ready="f"]');
    assert.equal(await page.locator('#diagnostics li').count(), 0);
  });
});

test('LLVM IR: the language selector, a check, a parse error, the shared state', async () => {
  await withPage(async (page) => {
    await page.goto(URL);
    await page.waitForSelector('#cfg-before g.cc-block');
    // The LLVM example: clang -O0's plain-kernels, seed 000's kernels in C.
    await page.selectOption('#examples', 'plain_kernels_O0.ll');
    assert.equal(await page.inputValue('#language'), 'llvm');
    await page.waitForSelector('#function option[value="loop_nest"]', { state: 'attached' });
    await page.selectOption('#function', 'loop_nest');
    await page.waitForSelector('body[data-ready="loop_nest"]');
    await page.fill('#passes', 'simplifycfg');
    await page.waitForSelector('body[data-ready="loop_nest"]');
    // One level: the IR's own CFG semantics; no tokens placed by lowering,
    // no source level.
    assert.equal(await page.locator('#tables table.trace').count(), 1, 'one trace table');
    assert.ok(await page.isDisabled('#tokens'));
    assert.equal(await page.inputValue('#reference'), 'cfg');
    assert.equal(await page.textContent('#before-name'), 'plain_kernels_O0.ll');
    await page.fill('#check-threads', '2');
    await page.click('#check-button');
    await page.waitForSelector('#verdict-word', { timeout: CHECK_TIMEOUT });
    assert.equal((await page.textContent('#verdict-word')).trim(), 'violated');
    assert.match(await page.textContent('#stages'), /simplifycfg: violated/);
    assert.match(await page.textContent('#counterexample'), /No replay line/);

    // The language is in the shared state.
    await page.waitForFunction(() => location.hash.startsWith('#state='));
    await page.waitForTimeout(400);
    const shared = page.url();
    const other = await page.context().browser().newPage();
    await other.goto(shared);
    await other.waitForSelector('body[data-ready="loop_nest"]');
    assert.equal(await other.inputValue('#language'), 'llvm');
    assert.equal(await other.inputValue('#passes'), 'simplifycfg');
    await other.close();

    // A parse error of LLVM IR, marked at its line and column.
    await page.fill('#source', 'define void @f() {\nentry:\n  ret voi\n}\n');
    await page.waitForSelector('body[data-errors="1"]');
    assert.match(await page.textContent('#diagnostics'), /:3:7: expected a type, found 'voi'/);
    assert.equal(await page.textContent('#backdrop mark.err'), 'voi');
    assert.equal(await page.textContent('#gutter .err'), '3');

    // Back to the kernel language: three tables again.
    await page.selectOption('#language', 'kernel');
    await page.selectOption('#examples', 'ambiguity-source.c');
    await page.waitForSelector('#function option[value="loop_nest"]', { state: 'attached' });
    assert.equal(await page.inputValue('#language'), 'kernel');
    assert.ok(!(await page.isDisabled('#tokens')));
  });
});

test('a JSON report opens and steps; nothing examined is not green; zoom; a target file', async () => {
  await withPage(async (page) => {
    await page.goto(URL);
    await page.waitForSelector('#cfg-before g.cc-block');
    // A report as `check --format json` writes it (the API answers the same
    // object), opened from a file.
    const source = await (await fetch(new globalThis.URL('/api/initial', URL))).json();
    const answer = await fetch(new globalThis.URL('/api/check', URL), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file: 'ambiguity-source.c', source: source.source, function: 'loop_nest', passes: ['simplifycfg'], max_iters: 2, threads: 2 }),
    });
    const report = await answer.json();
    assert.equal(report.verdict, 'violated');
    await page.setInputFiles('#open-report', { name: 'report.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(report)) });
    await page.waitForFunction(() => /report report\.json/.test(document.querySelector('#verdict').textContent));
    assert.equal((await page.textContent('#verdict-word')).trim(), 'violated');
    assert.match(await page.textContent('#verdict'), /report report\.json/);
    await page.waitForSelector('#step-text');
    assert.match(await page.textContent('#step-text'), /Step \d+ of \d+/);
    await page.click('#step-next');

    // A report whose stages compared nothing is never a green verdict.
    const empty = { ...report, verdict: 'preserved', counterexample: null, stages: report.stages.map((s) => ({ ...s, verdict: 'preserved', scenarios: 0, cut_paths: 0 })) };
    await page.setInputFiles('#open-report', { name: 'empty.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(empty)) });
    await page.waitForFunction(() => document.querySelector('#verdict-word').textContent.trim() === 'nothing examined');
    assert.ok(await page.locator('#verdict-word.badge.nothing').count());
    // Not a report: an error in the status line, the verdict kept.
    await page.setInputFiles('#open-report', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"error": "x"}') });
    await page.waitForFunction(() => /bad\.json: the report is an error/.test(document.querySelector('#status').textContent));
    assert.ok(await page.locator('#status.error').count());
    assert.equal((await page.textContent('#verdict-word')).trim(), 'nothing examined');

    // Zoom: a step in, then back to fit.
    assert.equal((await page.textContent('#before-zoom')).trim(), 'fit');
    await page.click('button[data-pic="before"][data-zoom="in"]');
    assert.match(await page.textContent('#before-zoom'), /^\d+%$/);
    const zoomed = await page.evaluate(() => document.querySelector('#cfg-before svg').style.width);
    assert.match(zoomed, /px$/);
    await page.click('button[data-pic="before"][data-zoom="fit"]');
    assert.equal((await page.textContent('#before-zoom')).trim(), 'fit');

    // Two files: the editor's kernel against a target file, as check SRC TGT.
    await page.selectOption('#function', 'loop_continue');
    await page.waitForSelector('body[data-ready="loop_continue"]');
    await page.setInputFiles('#open-target', { name: 'same.c', mimeType: 'text/plain', buffer: Buffer.from(source.source) });
    await page.waitForFunction(() => /target: same\.c/.test(document.querySelector('#target-chip').textContent));
    await page.fill('#max-iters', '2');
    await page.click('#check-button');
    await page.waitForFunction(() => {
      const w = document.querySelector('#verdict-word');
      return w && w.textContent.trim() !== 'running';
    }, null, { timeout: CHECK_TIMEOUT });
    assert.match((await page.textContent('#verdict-word')).trim(), /^(proved|preserved)$/);
    await page.click('#clear-target');
    assert.match(await page.textContent('#target-chip'), /no target file/);
  });
});

// clang through the page (issue 21 item 7): against a second server started
// with --allow-tools (EXPLORE_TOOLS_URL; run.sh and explore_browser.rs start
// one when clang-19 and opt-19 are installed, else this test is skipped).
const TOOLS_URL = process.env.EXPLORE_TOOLS_URL;

test('a .cu opened in the page is compiled by the server\'s clang and checked through opt', { skip: TOOLS_URL ? false : 'EXPLORE_TOOLS_URL is not set (no clang-19/opt-19)' }, async () => {
  await withPage(async (page) => {
    await page.goto(TOOLS_URL);
    await page.waitForSelector('#cfg-before g.cc-block');
    // "Open kernel…" with a .cu file: the language is CUDA, compiled by clang.
    const source = (await (await page.request.get(new globalThis.URL('/api/initial', TOOLS_URL).href)).json())
      .examples.find((e) => e.file === 'find-tid.cu').source;
    await page.setInputFiles('#open-kernel', { name: 'find-tid.cu', mimeType: 'text/plain', buffer: Buffer.from(source) });
    // The file is read asynchronously (FileReader): wait for the language.
    await page.waitForFunction(() => document.getElementById('language').value === 'cuda', null, { timeout: 20_000 });
    assert.match(await page.textContent('#tools-note'), /clang-19/);
    await page.waitForSelector('#function option[value="find_tid"]', { state: 'attached' });
    await page.selectOption('#function', 'find_tid');
    await page.fill('#passes', '');
    await page.waitForSelector('body[data-ready="find_tid"]');
    assert.match(await page.textContent('#status'), /find-tid\.cu \(CUDA, compiled by clang-19\): @find_tid/);
    // clang's CFG, one trace table, no tokens.
    assert.equal(await page.textContent('#before-name'), 'clang -O0');
    assert.equal(await page.locator('#tables table.trace').count(), 1, 'one trace table');
    assert.ok(await page.isDisabled('#tokens'));
    // Checked as `check find-tid.cu --frontend clang --opt default<O2>`:
    // violated against the source, at clang's lowering.
    assert.ok(await page.isVisible('#opt-pipeline'));
    await page.fill('#opt-pipeline', 'default<O2>');
    await page.fill('#check-threads', '4');
    await page.click('#check-button');
    await page.waitForSelector('#verdict-word', { timeout: CHECK_TIMEOUT });
    assert.equal((await page.textContent('#verdict-word')).trim(), 'violated');
    assert.match(await page.textContent('#verdict'), /reference: source level/);
    assert.match(await page.textContent('#stages'), /clang -O0: violated/);
    assert.match(await page.textContent('#step-text'), /__ballot_sync/);
    // A cell of the target table selects the ballot's block in clang's CFG.
    const cell = page.locator('#counterexample table[data-kind="cx-target"] td.inst[data-label="__ballot_sync"]').first();
    await cell.click();
    assert.ok(await page.locator('#cfg-before g.cc-block.hl').count() >= 1, 'the ballot\'s block is highlighted');
    // ... and its source line (16) in the editor.
    const selected = await page.locator('#backdrop .line').evaluateAll((ls) => ls.map((l, i) => (l.classList.contains('sel') ? i + 1 : 0)).filter(Boolean));
    assert.deepEqual(selected, [16], 'the ballot\'s source line is selected in the editor');
    // clang's flags and the launch, as `check --clang-arg -DUNUSED=1
    // --block-dim 4`: the same violation, for a group of the block's 4.
    assert.ok(await page.isVisible('#clang-args'));
    assert.ok(await page.isVisible('#block-dim'));
    await page.fill('#clang-args', '-DUNUSED=1');
    await page.fill('#block-dim', '4');
    await page.click('#check-button');
    await page.waitForSelector('#verdict-word', { timeout: CHECK_TIMEOUT });
    assert.equal((await page.textContent('#verdict-word')).trim(), 'violated');
    assert.match(await page.textContent('#verdict'), /threads: 4,/);
    await page.fill('#block-dim', '');
    await page.fill('#clang-args', '');
    // clang's error, at its line and column.
    await page.fill('#source', '__global__ void k(int *o) { o[0] = x; }\n');
    await page.waitForSelector('body[data-errors="1"]');
    assert.match(await page.textContent('#diagnostics'), /:1:36: use of undeclared identifier 'x'/);
    assert.equal(await page.textContent('#gutter .err'), '1');
  });
});
