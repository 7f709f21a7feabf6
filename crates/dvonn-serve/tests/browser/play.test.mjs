// The page of `dvonn serve` in a real browser: headless Chromium (Debian's
// package) driven by Playwright. Plays a whole game against the engine by
// clicks, stops the engine and an analysis, imports games and steps
// through them, reviews a game (the graph, the marks, the engine's arrow,
// a stop), exports, follows a position link, closes a page that is
// searching or reviewing, and checks that the page logged no error.
// Screenshots go to $SCREENSHOTS (default: target/serve-screenshots);
// serve-review.png is docs/review.png.
//
// Run: npm ci && npm test (in this folder), after building the `dvonn`
// binary (`cargo build`; $DVONN_BIN names another one, $CHROMIUM another
// browser).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, beforeEach, test } from 'node:test';

import { chromium } from 'playwright-core';

import { api, binary, repository, startServer } from './server.mjs';

const screenshots = process.env.SCREENSHOTS || path.join(repository, 'target', 'serve-screenshots');
// The sample game files of dvonn-notation (this test is not packaged).
const records = path.join(repository, 'crates', 'dvonn-notation', 'tests', 'records');

let server;
let context;
let profile;
/** The errors the pages logged during the current test. */
let errors = [];

before(async () => {
  server = await startServer(binary());
  profile = await fs.mkdtemp(path.join(os.tmpdir(), 'dvonn-chromium-'));
  await fs.mkdir(screenshots, { recursive: true });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1120, height: 820 },
  });
  context.on('page', (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  });
});

after(async () => {
  if (context) await context.close();
  if (server) await server.stop();
  if (profile) await fs.rm(profile, { recursive: true, force: true });
});

beforeEach(() => {
  errors = [];
});

afterEach(async () => {
  for (const page of context.pages()) await page.close();
  assert.deepEqual(errors, [], 'the page logged no error');
});

/** The page's state, as it writes it on <body>. */
const state = (page) => page.evaluate(() => ({ ...document.body.dataset }));

/** Waits until no request of the page is in flight and it is not the
 * engine's turn. */
async function settled(page) {
  await page.waitForFunction(() => {
    const { busy, turn } = document.body.dataset;
    return busy === 'no' && turn !== 'engine';
  });
  return state(page);
}

/** Clicks and waits for the game to change and settle. */
async function clickAndSettle(page, selector) {
  const before = await state(page);
  await page.click(selector);
  await page.waitForFunction(
    ({ plies, ply, position }) => {
      const now = document.body.dataset;
      return now.plies !== plies || now.ply !== ply || now.position !== position;
    },
    before,
  );
  return settled(page);
}

/** The cells of the board elements matching `selector`. */
const cells = (page, selector) =>
  page.$$eval(`#board ${selector}`, (elements) => elements.map((element) => element.dataset.cell));

const pick = (list) => list[Math.floor(Math.random() * list.length)];

async function openPage(viewport) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(server.url);
  await page.waitForSelector('#board svg');
  await settled(page);
  return page;
}

/** Opens a new game with the settings of the form. */
async function newGame(page, { you = 'white', strength = 'casual', time, setup = 'empty' }) {
  await page.selectOption('#you', you);
  if (you !== 'both') await page.selectOption('#strength', strength);
  if (time) await page.fill('#time', String(time));
  await page.selectOption('#setup', setup);
  await newGameFrom(page, '#new');
}

/** Clicks `selector` and waits for the page to show another game. */
async function newGameFrom(page, selector) {
  const before = (await state(page)).game;
  await page.click(selector);
  await page.waitForFunction((id) => document.body.dataset.game !== id, before);
}

test('plays a whole game against the engine by clicks', async () => {
  const page = await openPage();
  await newGame(page, { strength: 'casual' });
  let now = await settled(page);
  assert.equal(now.plies, '0');
  let undone = false;
  let shot = false;
  let movements = 0;
  for (let clicks = 0; now.turn !== 'over'; clicks += 1) {
    assert.ok(clicks < 400, 'the game ends');
    assert.equal(now.turn, 'you');
    if (!(await page.isDisabled('#pass'))) {
      now = await clickAndSettle(page, '#pass');
      continue;
    }
    const placements = await cells(page, 'polygon.cell.target');
    if (placements.length > 0) {
      now = await clickAndSettle(page, `#board polygon.cell[data-cell="${pick(placements)}"]`);
    } else {
      const movable = await cells(page, 'circle.stack.movable');
      assert.ok(movable.length > 0, 'a stack to move is marked');
      const from = pick(movable);
      await page.click(`#board circle.stack[data-cell="${from}"]`);
      await page.waitForSelector(`#board circle.stack.selected[data-cell="${from}"]`);
      const targets = await cells(page, 'polygon.cell.target');
      assert.ok(targets.length > 0, 'the legal targets are highlighted');
      movements += 1;
      if (!shot && movements === 3) {
        await page.screenshot({ path: path.join(screenshots, 'serve-play.png') });
        shot = true;
      }
      now = await clickAndSettle(page, `#board circle.stack[data-cell="${pick(targets)}"]`);
    }
    if (!undone && Number(now.plies) >= 10 && now.turn === 'you') {
      const plies = Number(now.plies);
      now = await clickAndSettle(page, '#undo');
      assert.equal(Number(now.plies), plies - 2, 'undo takes back my move and the reply');
      undone = true;
    }
  }
  assert.ok(undone && shot);
  const status = await page.textContent('#status');
  assert.match(status, /^Game over: (White wins|Black wins|a draw)/);
  assert.match(await page.textContent('#score'), /^White \d+ · Black \d+$/);
  await page.screenshot({ path: path.join(screenshots, 'serve-game-over.png') });
});

test('stops the engine and an analysis, live', async () => {
  const page = await openPage();
  await newGame(page, { you: 'black', strength: 'time', time: 30, setup: 'random' });
  await page.waitForSelector('#stop-engine:not([hidden])');
  await page.waitForTimeout(500);
  assert.equal((await state(page)).plies, '0', 'the engine still thinks');
  const asked = Date.now();
  await page.click('#stop-engine');
  let now = await settled(page);
  assert.ok(Date.now() - asked < 5000, 'the engine moved at once');
  assert.equal(now.plies, '1');
  assert.equal(now.turn, 'you');

  await page.click('#analyse');
  await page.waitForFunction(() => /depth \d+/.test(document.getElementById('evaluation').textContent));
  await page.waitForFunction(() => document.getElementById('pv').textContent.startsWith('Best line: '));
  await page.screenshot({ path: path.join(screenshots, 'serve-analysis.png') });
  await page.click('#stop-analysis');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  assert.match(await page.textContent('#evaluation'), /done$/);
  assert.equal((await api(server.url, 'GET', '/api/status')).searches_running, 0);
});

test('shows an exact endgame result', async () => {
  const page = await openPage();
  const position = '........./........../.BWDWBWB.../........../......... w m';
  await page.goto(`${server.url}?position=${encodeURIComponent(position)}`);
  await page.waitForFunction((p) => document.body.dataset.position === p, position);
  await settled(page);
  await page.click('#analyse');
  await page.waitForFunction(() => document.body.dataset.analysis === 'done');
  assert.match(await page.textContent('#evaluation'), /^exact: (White wins by \d+|a draw)/);
  assert.ok(await page.$eval('#evaluation', (element) => element.classList.contains('exact')));
});

test('imports games, steps through them, exports them and links a position', async () => {
  const page = await openPage();
  await page.click('#import-panel summary');
  const transcript = await fs.readFile(path.join(records, 'littlegolem-dvonn.mc.2014.may.1.1.txt'), 'utf8');
  await page.fill('#import-text', transcript);
  await newGameFrom(page, '#import');
  let now = await settled(page);
  assert.ok(Number(now.plies) >= 60, 'the whole game');
  assert.equal(now.ply, now.plies);
  assert.match(await page.textContent('#status'), /^(White|Black) resigned\. (White|Black) to move\.$/);
  assert.equal(now.ply, now.plies);

  now = await clickAndSettle(page, '#first');
  assert.equal(now.ply, '0');
  const seen = new Set([now.position]);
  for (let ply = 1; ply <= 3; ply += 1) {
    now = await clickAndSettle(page, '#forward');
    assert.equal(Number(now.ply), ply);
    seen.add(now.position);
  }
  assert.equal(seen.size, 4, 'each step shows a new position');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  now = await clickAndSettle(page, '#moves button[data-ply="60"]');
  assert.equal(now.ply, '60');
  assert.equal(await page.textContent('#moves button.current'), await page.textContent('#moves button[data-ply="60"]'));
  await page.screenshot({ path: path.join(screenshots, 'serve-import.png') });

  const before = (await state(page)).game;
  await page.setInputFiles('#import-file', path.join(records, 'handmade-boardspace.sgf'));
  await page.waitForFunction((id) => document.body.dataset.game !== id, before);
  now = await settled(page);
  assert.ok(Number(now.plies) > 0);

  await page.click('#export-panel summary');
  await page.click('#export-record');
  await page.waitForFunction(() => document.getElementById('export-text').value.includes('[Result'));
  assert.ok(await page.isVisible('#download'));
  await page.click('#export-lg');
  await page.waitForFunction(() => /^1\. [a-k][1-5] /m.test(document.getElementById('export-text').value));

  await clickAndSettle(page, '#back');
  const link = await page.getAttribute('#link', 'href');
  const position = (await state(page)).position;
  assert.ok(link.includes('?position='));
  await page.goto(link);
  await page.waitForFunction((p) => document.body.dataset.position === p, position);
  now = await settled(page);
  assert.equal(now.plies, '0');
  assert.equal(new URL(page.url()).search, '', 'the address no longer reopens the position on reload');
});

test('fits a phone', async () => {
  const page = await openPage({ width: 390, height: 844 });
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    board: document.querySelector('#board svg').getBoundingClientRect().width,
  }));
  assert.ok(widths.page <= 390, `no sideways scrolling: ${widths.page}`);
  assert.ok(widths.board > 300 && widths.board <= 390, `the board fills the width: ${widths.board}`);
  await page.screenshot({ path: path.join(screenshots, 'serve-phone.png') });
});

test('a closed page leaves no search running', async () => {
  const page = await openPage();
  await newGame(page, { you: 'both', setup: 'random' });
  await settled(page);
  await page.click('#analyse');
  await page.waitForFunction(() => /depth \d+/.test(document.getElementById('evaluation').textContent));
  assert.equal((await api(server.url, 'GET', '/api/status')).searches_running, 1);
  await page.close();
  const start = Date.now();
  while ((await api(server.url, 'GET', '/api/status')).searches_running > 0) {
    assert.ok(Date.now() - start < 5000, 'the search stopped with its page');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

/** Imports the Little Golem sample game; resolves to the page's state. */
async function importSample(page) {
  await page.click('#import-panel summary');
  const transcript = await fs.readFile(path.join(records, 'littlegolem-dvonn.mc.2014.may.1.1.txt'), 'utf8');
  await page.fill('#import-text', transcript);
  await newGameFrom(page, '#import');
  return settled(page);
}

/** Waits until no search runs on the server (at most 5 s). */
// The search stops first; its game forgets the review a moment later.
async function noSearchRunning() {
  const start = Date.now();
  for (;;) {
    const status = await api(server.url, 'GET', '/api/status');
    if (status.searches_running === 0 && status.reviews_running === 0) return;
    assert.ok(Date.now() - start < 5000, 'the search stopped');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('reviews a game: the graph, the marks and the arrow', async () => {
  const page = await openPage({ width: 1120, height: 1000 });
  const { game, plies } = await importSample(page);
  await page.fill('#review-time', '0.1');
  await page.click('#review');
  await page.waitForFunction(() => document.body.dataset.review === 'running');
  assert.ok(await page.isVisible('#review-progress'));
  assert.ok(await page.isDisabled('#analyse'), 'no analysis while the game is reviewed');
  // The moves are marked as they are judged, from the last back.
  await page.waitForFunction(() => /Reviewing: \d+ of \d+ plies/.test(document.getElementById('review-status').textContent));
  await page.waitForFunction(() => document.body.dataset.review === 'done', null, { timeout: 120000 });
  assert.ok(!(await page.isVisible('#review-progress')));
  assert.match(await page.textContent('#review-status'), new RegExp(`^Reviewed at 0.1 s a position: all ${plies} plies\\.$`));
  assert.match(await page.textContent('#review-summary'), /^White \(.+\): \d+ moves, average loss \d+\.\d\d; /);

  // The graph under the board: a band per ply, the curve, a dot per mark.
  const review = await api(server.url, 'GET', `/api/games/${game}/review`);
  assert.equal(await page.locator('#graph svg rect.ply').count(), Number(plies));
  assert.equal(await page.locator('#graph svg .curve').count(), 1);
  const marked = review.plies.filter((entry) => entry.mark);
  assert.ok(marked.length > 0, 'a real game has marked moves');
  assert.equal(await page.locator('#graph svg circle.mark').count(), marked.length);
  const graphBox = await page.locator('#graph svg').boundingBox();
  const boardBox = await page.locator('#board svg').boundingBox();
  assert.ok(graphBox.y >= boardBox.y + boardBox.height, 'the graph is under the board');

  // The marks in the move list: the mark's symbol and colour on the move.
  const symbols = { inaccuracy: '?!', mistake: '?', blunder: '??' };
  assert.equal(await page.locator('#moves button.marked').count(), marked.length);
  for (const entry of marked) {
    const button = page.locator(`#moves button[data-ply="${entry.ply + 1}"]`);
    assert.equal(await button.textContent(), `${entry.move}${symbols[entry.mark]}`);
    assert.ok(await button.evaluate((element, mark) => element.classList.contains(`mark-${mark}`), entry.mark));
  }

  // A click on the graph goes to the position where the move was chosen,
  // with the engine's move as an arrow.
  const chosen = marked.find((entry) => entry.phase === 'movement' && entry.best) || marked[0];
  const before = await state(page);
  await page.click(`#graph svg circle.mark[data-ply="${chosen.ply}"]`);
  await page.waitForFunction((ply) => document.body.dataset.ply === String(ply), chosen.ply);
  await settled(page);
  assert.notEqual((await state(page)).ply, before.ply);
  const arrow = page.locator('#board svg .best');
  assert.equal(await arrow.count(), 1);
  assert.equal(await arrow.getAttribute('data-move'), chosen.engine_move);
  assert.equal(await page.locator(`#graph svg rect.ply.current[data-ply="${chosen.ply}"]`).count(), 1);
  assert.match(await page.textContent('#review-line'), new RegExp(`: played ${chosen.move} — ${chosen.mark}, \\d+\\.\\d\\d pieces lost\\. The engine plays ${chosen.engine_move} \\(blue arrow\\)\\.$`));
  await page.screenshot({ path: path.join(screenshots, 'serve-review.png'), fullPage: true });

  // Every position of the game shows the engine's move of its review.
  await page.click(`#graph svg rect.ply[data-ply="0"]`);
  await page.waitForFunction(() => document.body.dataset.ply === '0');
  await settled(page);
  assert.equal(await page.locator('#board svg .best').getAttribute('data-move'), review.plies[0].engine_move);

  // A review stopped midway keeps the plies it judged.
  await page.fill('#review-time', '2');
  await page.click('#review');
  await page.waitForFunction(() => /Reviewing: [1-9]/.test(document.getElementById('review-status').textContent));
  await page.click('#stop-review');
  await page.waitForFunction(() => document.body.dataset.review === 'done');
  assert.match(await page.textContent('#review-status'), /^Stopped at 2 s a position: the last \d+ of \d+ plies reviewed\.$/);
  await noSearchRunning();
});

test('a page closed during a review leaves no search running', async () => {
  const page = await openPage();
  await importSample(page);
  await page.fill('#review-time', '5');
  await page.click('#review');
  await page.waitForFunction(() => document.body.dataset.review === 'running');
  const start = Date.now();
  while ((await api(server.url, 'GET', '/api/status')).reviews_running === 0) {
    assert.ok(Date.now() - start < 5000, 'the review started');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.close();
  await noSearchRunning();
});
