import { type LimitNode, type RawBuilder, SqliteQueryCompiler, sql } from 'kysely';

/**
 * A LIMIT written as an expression of its value (`? + 0`), never as a bare bound parameter: this SQLite (3.53)
 * runs a statement whose LIMIT is a bare parameter in about as much time again as it takes to prepare it, whatever
 * the statement does (a primary-key range read 8.7 against 4.5 µs, the keyword count statement 127 against 64 µs, its
 * preparation 65 µs; a literal LIMIT costs what the expression does; OFFSET has no such cost). BENCHMARKS.md, "a bare
 * LIMIT parameter".
 */
export const limitExpression = (value: number): RawBuilder<number> => sql<number>`${value} + 0`;

/** Kysely's SQLite compiler, with every `.limit()` written as `limitExpression` writes it. */
export class LimitExpressionCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    super.visitLimit(node);
    this.append(' + 0');
  }
}
