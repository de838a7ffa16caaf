/**
 * Dates in text ("8 May, 2023", "last week"), through chrono's English parsers alone, as `chrono.parse` always
 * parsed: the package's main entry loads its fifteen other languages too (268 files at every start).
 */
export * as chrono from 'chrono-node/en';
export type { Component, ParsedComponents } from 'chrono-node';
