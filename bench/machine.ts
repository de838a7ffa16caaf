import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/** The 1, 5 and 15 minute load averages, for saying how busy the shared machine was during a figure. */
export const loadAverages = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * Huge pages the kernel holds in reserve (`vm.nr_hugepages`), "" when none or not Linux: PostgreSQL's default
 * `huge_pages = try` puts its shared memory on them when there are enough, which changes its CPU a memory
 * (docs/postgres-tuning.md, "Huge pages"), so a figure says whether they were there.
 */
function hugePagesReserved(): string {
  try {
    const meminfo = readFileSync('/proc/meminfo', 'utf8');
    const total = Number(/^HugePages_Total:\s+(\d+)/m.exec(meminfo)?.[1] ?? 0);
    const size = /^Hugepagesize:\s+(\d+ kB)/m.exec(meminfo)?.[1];
    return total > 0 ? `, ${total} huge pages of ${size} reserved` : '';
  } catch {
    return '';
  }
}

/** One line that says where a figure was measured. */
export function machineLine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 1024 ** 3)} GiB RAM${hugePagesReserved()}, Node ${process.version}, ${new Date().toISOString()}`;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** p50 / p95 / p99 / mean of some latencies in ms, in any order: "12.0 / 18.1 / 25.3 / 12.6 ms". */
export function latencySummary(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((total, ms) => total + ms, 0) / Math.max(1, sorted.length);
  return `${[50, 95, 99].map((p) => percentile(sorted, p).toFixed(1)).join(' / ')} / ${mean.toFixed(1)} ms`;
}

/** Peak resident set size of a process (VmHWM), in MiB. */
export async function peakRssMiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}
