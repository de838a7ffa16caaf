/**
 * What sending vectors to PostgreSQL and reading them back costs in pgvector's text form and in its binary form
 * (`pgvectorBinary`, `fromPgvectorBinary`, src/storage/postgres/search-engine.ts): `npx tsx bench/pg-vector-encoding.ts`.
 *
 * Sending: batches of VECTORS_BATCH (100) random unit vectors of VECTORS_DIMENSIONS (256) go to the server as one
 * statement of `$n::vector` parameters, as a batch's duplicate check does. Printed per form: the client's time to
 * encode a batch and the statement's time (the server reading the vectors; it does nothing else with them).
 * Reading: a batch of random rows by id from a table of 2,000 such vectors, as recall reads its candidates' vectors,
 * selected as the column (text) or as `vector_send` (binary). Printed per form: the statement's time (the server
 * printing the vectors, the driver receiving them) and the client's time to decode them.
 * VECTORS_ROUNDS (30) batches per form, the two forms alternating twice. Needs the server binaries, or
 * MEMD_BENCH_DATABASE_URL.
 */
import pg from 'pg';
import { fromPgvectorBinary, pgvectorBinary } from '../src/storage/postgres/search-engine.js';
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

  await client.query('CREATE TEMP TABLE stored (id int PRIMARY KEY, embedding vector)');
  const TABLE = 2_000;
  for (let id = 0; id < TABLE; id++)
    await client.query('INSERT INTO stored VALUES ($1, $2)', [id, pgvectorBinary(randomUnitVector())]);
  console.log(`\nreading ${BATCH} of ${TABLE} stored vectors by id`);
  console.log('| form | statement ms / batch | decode ms / batch |\n|---|---|---|');
  const readForms = {
    text: { select: 'embedding', decode: (raw: unknown) => Float32Array.from(JSON.parse(raw as string) as number[]) },
    binary: { select: 'vector_send(embedding)', decode: (raw: unknown) => fromPgvectorBinary(raw as Buffer) },
  };
  for (const name of ['text', 'binary', 'text', 'binary'] as const) {
    const { select, decode } = readForms[name];
    let reading = 0;
    let decoding = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const ids = Array.from({ length: BATCH }, () => Math.floor(Math.random() * TABLE));
      const started = performance.now();
      const { rows } = await client.query(`SELECT ${select} AS embedding FROM stored WHERE id = ANY($1)`, [ids]);
      const read = performance.now();
      for (const row of rows) decode(row.embedding);
      reading += read - started;
      decoding += performance.now() - read;
    }
    console.log(`| ${name} | ${(reading / ROUNDS).toFixed(2)} | ${(decoding / ROUNDS).toFixed(2)} |`);
  }
  console.log(`load ${loadAverages()}`);
} finally {
  await client.end();
  await server.stop();
}
