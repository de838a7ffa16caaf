/**
 * What sending a vector to PostgreSQL costs in pgvector's text form and in its binary form (`pgvectorBinary`,
 * src/storage/postgres/search-engine.ts): `npx tsx bench/pg-vector-encoding.ts`.
 *
 * Batches of VECTORS_BATCH (100) random unit vectors of VECTORS_DIMENSIONS (256) go to the server as one statement of
 * `$n::vector` parameters, as a batch's duplicate check does, VECTORS_ROUNDS (30) times per form, the two forms
 * alternating twice. Printed per form: the client's time to encode a batch and the statement's time (the server
 * reading the vectors; it does nothing else with them). Needs the server binaries, or MEMD_BENCH_DATABASE_URL.
 */
import pg from 'pg';
import { pgvectorBinary } from '../src/storage/postgres/search-engine.js';
import { loadAverages, machineLine } from './machine.js';
import { benchPostgres } from './postgres.js';

const BATCH = Number(process.env.VECTORS_BATCH ?? 100);
const DIMENSIONS = Number(process.env.VECTORS_DIMENSIONS ?? 256);
const ROUNDS = Number(process.env.VECTORS_ROUNDS ?? 30);

/** The form memd sent before: each float32 printed as the double it widens to. */
const asText = (vector: Float32Array): string => `[${Array.from(vector).join(',')}]`;

function randomUnitVector(): Float32Array {
  const vector = Float32Array.from({ length: DIMENSIONS }, () => Math.random() - 0.5);
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

console.log(machineLine());
const server = await benchPostgres();
const client = new pg.Client({ connectionString: server.url });
await client.connect();
try {
  await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  const vectors = Array.from({ length: BATCH }, randomUnitVector);
  const statement = `SELECT count(*) FROM (VALUES ${vectors.map((_, i) => `($${i + 1}::vector(${DIMENSIONS}))`).join(', ')}) AS v(e) WHERE vector_dims(e) = ${DIMENSIONS}`;
  console.log(`${server.describe}; ${BATCH} vectors of ${DIMENSIONS} dimensions a batch, ${ROUNDS} batches a form`);
  console.log('| form | encode ms / batch | statement ms / batch |\n|---|---|---|');
  for (const [name, encode] of [
    ['text', asText],
    ['binary', pgvectorBinary],
    ['text', asText],
    ['binary', pgvectorBinary],
  ] as const) {
    let encoding = 0;
    let reading = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const parameters = vectors.map((vector) => encode(vector));
      const encoded = performance.now();
      await client.query(statement, parameters);
      encoding += encoded - started;
      reading += performance.now() - encoded;
    }
    console.log(`| ${name} | ${(encoding / ROUNDS).toFixed(2)} | ${(reading / ROUNDS).toFixed(2)} |`);
  }
  console.log(`load ${loadAverages()}`);
} finally {
  await client.end();
  await server.stop();
}
