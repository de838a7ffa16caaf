import { Presets, SingleBar } from 'cli-progress';

export interface Progress {
  /** How far the work is (in the unit the bar was started with). */
  update(done: number): void;
  /** Says what is going on, after the numbers (e.g. waiting for the server once everything is sent). */
  note(text: string): void;
  stop(): void;
}

const mebibytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)}`;

const SILENT: Progress = { update: () => undefined, note: () => undefined, stop: () => undefined };

/** Whether a bar may be drawn: stderr is a terminal (a log file or a pipe gets no control characters). */
export const progressVisible = (): boolean => process.stderr.isTTY === true;

/**
 * A progress bar on stderr while `visible`, else nothing. `total` null: the size is unknown (a pipe), and the bar only
 * counts. Bytes are shown in MiB.
 */
export function startProgress(
  label: string,
  unit: string,
  total: number | null,
  visible = progressVisible(),
): Progress {
  if (!visible) return SILENT;
  const stream = process.stderr;
  const shown = unit === 'bytes' ? 'MiB' : unit;
  const format =
    total === null
      ? `${label} {value} ${shown} {note}`
      : `${label} [{bar}] {percentage}% {value}/{total} ${shown} ETA {eta_formatted} {note}`;
  const formatValue = (value: number, _options: unknown, kind: string): string =>
    unit === 'bytes' && (kind === 'value' || kind === 'total') ? mebibytes(value) : String(value);
  const bar = new SingleBar({ format, stream, hideCursor: true, etaBuffer: 50, formatValue }, Presets.shades_classic);
  bar.start(total ?? 0, 0, { note: '' });
  return { update: (done) => bar.update(done), note: (text) => bar.update({ note: text }), stop: () => bar.stop() };
}
