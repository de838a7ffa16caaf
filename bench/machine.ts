import { cpus, loadavg, totalmem } from 'node:os';

/** The 1, 5 and 15 minute load averages, for saying how busy the shared machine was during a figure. */
export const loadAverages = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** One line that says where a figure was measured. */
export function machineLine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 1024 ** 3)} GiB RAM, Node ${process.version}, ${new Date().toISOString()}`;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** Peak resident set size of a process (VmHWM), in MiB. */
export async function peakRssMiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}
