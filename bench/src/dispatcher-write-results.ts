/**
 * Writes the dispatcher section of RESULTS.md from a run's JSON (`BENCH_OUT`), for figures taken
 * with `BENCH_RESULTS=0`: `tsx src/dispatcher-write-results.ts run.json [notes.md]`. The notes (the
 * medians of several runs, the reading of where the time goes) go to a section of their own, which
 * the benchmark's own runs leave alone.
 */
import { readFileSync } from "node:fs";
import { writeResultsSection } from "./common";
import { type DispatcherFigures, resultsMarkdown } from "./dispatcher-report";

const [figuresPath, notesPath] = process.argv.slice(2);
if (!figuresPath) throw new Error("usage: dispatcher-write-results.ts run.json [notes.md]");
const figures = JSON.parse(readFileSync(figuresPath, "utf8")) as DispatcherFigures;
writeResultsSection("dispatcher", resultsMarkdown(figures));
if (notesPath) writeResultsSection("dispatcher-notes", readFileSync(notesPath, "utf8"));
