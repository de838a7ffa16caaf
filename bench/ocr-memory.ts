/**
 * Memory of one page of OCR and of drawing one scanned PDF page: `npm run bench:ocr-memory`.
 *
 * Each case runs in a fresh process of its own (`--case <name>`), which reads its input from a file (made here
 * beforehand, so that no canvas of the generator stays in the measured process) and reports its resident memory:
 * at start, after the OCR model has loaded (OCR cases), its peak while the page is read or drawn (VmHWM, reset
 * through /proc/self/clear_refs just before), and a second after the page (the thread still alive and idle, or
 * let go after a failure). What a case adds to the process is the thread's cost: memd's own memory is not in it.
 * Settings come from MEMD_* variables as memd reads them (the defaults when none is set).
 *
 * - OCR: TesseractOcrProvider with one thread (MEMD_OCR_WORKERS=1), on a line of text (30 px type), an A4 page of text at 300 dpi
 *   (2,480 × 3,508 = 8.7 M pixels) and a page of MEMD_OCR_MAX_PIXELS (5,000 × 5,000 = 25 M pixels).
 * - Drawing: PageRenderer at the default MEMD_DOCUMENT_RENDER_MEMORY_MB (512) on a PDF page holding the A4 scan, one
 *   holding the 25 M pixel scan, and two hostile pages: one 100 M pixel image (refused before decoding) and 300
 *   different 1 M pixel blank images (stopped at the memory bound).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { PageRenderer } from '../src/core/documents/renderer.js';
import { TesseractOcrProvider } from '../src/providers/ocr/tesseract.js';
import { pdfWithScans, textImage } from '../test/support/documents.js';
import { machineLine } from './machine.js';

const WORDS =
  'the harbour board met on tuesday to hear the report of the pilots and agreed that the new dredger should begin work on the northern channel before the spring tides'.split(
    ' ',
  );

/** A white page of `width` × `height` pixels covered in lines of black 10-point text (at 300 dpi), as a PNG. */
async function textPage(width: number, height: number): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, width, height);
  context.fillStyle = 'black';
  context.font = '42px serif';
  for (let y = 150, line = 0; y < height - 150; y += 64, line++) {
    const words: string[] = [];
    for (
      let i = 0;
      context.measureText([...words, WORDS[(line * 7 + i) % WORDS.length]].join(' ')).width < width - 300;
      i++
    )
      words.push(WORDS[(line * 7 + i) % WORDS.length]!);
    context.fillText(words.join(' '), 150, y);
  }
  return canvas.encode('png');
}

/** A PDF of one page of `widthPt` × `heightPt` points drawing `image` over the whole page. */
async function scannedPdf(image: Buffer, widthPt: number, heightPt: number): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const embedded = await pdf.embedPng(image);
  pdf.addPage([widthPt, heightPt]).drawImage(embedded, { x: 0, y: 0, width: widthPt, height: heightPt });
  return Buffer.from(await pdf.save());
}

interface CaseResult {
  startMiB: number;
  loadedMiB?: number;
  peakMiB: number;
  afterMiB: number;
  ms: number;
  outcome: string;
}

const status = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');
const round = (mib: number) => Math.round(mib);

/** One case, in this (fresh) process. */
async function runCase(kind: 'ocr' | 'render', input: string): Promise<CaseResult> {
  const bytes = new Uint8Array(readFileSync(input));
  const config = loadConfig();
  const start = status('VmRSS');
  let loaded: number | undefined;
  let run: () => Promise<string>;
  let close: () => Promise<void>;
  if (kind === 'ocr') {
    const ocr = new TesseractOcrProvider({ ...config.ocr, workers: 1 });
    await ocr.init();
    loaded = status('VmRSS');
    run = async () => {
      const result = await ocr.recognize(bytes);
      return `${result.width}×${result.height}, ${result.text.split(/\s+/).length} words`;
    };
    close = () => ocr.close();
  } else {
    const renderer = new PageRenderer({ memoryMb: config.documents.renderMemoryMb });
    run = async () => {
      const drawn = await renderer.render({ bytes, pageNo: 1, maxPixels: config.ocr.maxPixels }, config.ocr.timeoutMs);
      return drawn.ok ? `drawn, ${drawn.image.length} bytes of PNG` : `${drawn.code}: ${drawn.message}`;
    };
    close = () => renderer.close();
  }
  resetPeak();
  const began = performance.now();
  const outcome = await run();
  const ms = performance.now() - began;
  const peak = status('VmHWM');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const after = status('VmRSS');
  await close();
  return {
    startMiB: round(start),
    loadedMiB: loaded === undefined ? undefined : round(loaded),
    peakMiB: round(peak),
    afterMiB: round(after),
    ms: Math.round(ms),
    outcome,
  };
}

/** Runs a case in a child process (this file with `--case`) and returns what it reports. */
function inChild(kind: string, input: string): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', new URL(import.meta.url).pathname, '--case', kind, input],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as CaseResult)
        : reject(new Error(`case ${kind} ${input} exited ${code}: ${out}`)),
    );
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memd-ocr-memory-'));
  try {
    const file = (name: string, bytes: Buffer) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    };
    const line = file('line.png', await textImage(['The harbour board met on Tuesday to hear the pilots']));
    const a4Png = await textPage(2_480, 3_508);
    const maxPng = await textPage(5_000, 5_000);
    const cases: Array<[label: string, kind: 'ocr' | 'render', input: string]> = [
      ['OCR: one line of text', 'ocr', line],
      ['OCR: A4 at 300 dpi, 2,480×3,508 (8.7 Mpx)', 'ocr', file('a4.png', a4Png)],
      ['OCR: 5,000×5,000 (25 Mpx, MEMD_OCR_MAX_PIXELS)', 'ocr', file('max.png', maxPng)],
      ['draw: A4 scan, page 595×842 pt → 8.7 Mpx', 'render', file('a4.pdf', await scannedPdf(a4Png, 595, 842))],
      [
        'draw: 25 Mpx scan, page 1,200×1,200 pt → 25 Mpx',
        'render',
        file('max.pdf', await scannedPdf(maxPng, 1_200, 1_200)),
      ],
      [
        'draw: hostile, one 10,000×10,000 image',
        'render',
        file('huge.pdf', await pdfWithScans([{ blankImages: { width: 10_000, height: 10_000, count: 1 } }])),
      ],
      [
        'draw: hostile, 300 different 1,000×1,000 images',
        'render',
        file('many.pdf', await pdfWithScans([{ blankImages: { width: 1_000, height: 1_000, count: 300 } }])),
      ],
    ];
    console.log(`# bench:ocr-memory — ${machineLine()}`);
    console.log('| case | process at start | model loaded | peak (VmHWM) | 1 s after | time | outcome |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [label, kind, input] of cases) {
      const r = await inChild(kind, input);
      const loaded = r.loadedMiB === undefined ? '—' : `${r.loadedMiB} MiB (+${r.loadedMiB - r.startMiB})`;
      console.log(
        `| ${label} | ${r.startMiB} MiB | ${loaded} | ${r.peakMiB} MiB (+${r.peakMiB - r.startMiB}) | ${r.afterMiB} MiB (+${r.afterMiB - r.startMiB}) | ${(r.ms / 1000).toFixed(1)} s | ${r.outcome} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const caseAt = process.argv.indexOf('--case');
if (caseAt >= 0) {
  const result = await runCase(process.argv[caseAt + 1] as 'ocr' | 'render', process.argv[caseAt + 2]!);
  console.log(JSON.stringify(result));
} else {
  await main();
}
