/** One sample of the Prometheus text format: `name{label="value",…} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses an exposition (comments and blank lines skipped); throws on a line it cannot read. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * The value of the sample named `name` whose labels include `labels`; several match: their sum. Undefined when
 * none matches, so that a missing series is not mistaken for a zero.
 */
export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return matching.length === 0 ? undefined : matching.reduce((total, s) => total + s.value, 0);
}

/** How much a series grew between two scrapes (a series absent before counts from 0). */
export function growth(
  before: readonly Sample[],
  after: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const now = sampleValue(after, name, labels);
  if (now === undefined) throw new Error(`no series ${name}${JSON.stringify(labels)} in the second scrape`);
  return now - (sampleValue(before, name, labels) ?? 0);
}
