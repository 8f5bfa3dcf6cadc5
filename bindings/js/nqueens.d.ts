// nqueens.d.ts - the package's types (nqueens.mjs).

/** An engine's name, as `nqueens engines` lists them. */
export type EngineName =
  | "brute" | "backtrack" | "flags" | "bitmap" | "mirror" | "symmetry"
  | "carry" | "fast" | "subunits" | (string & {});

export interface CountOptions {
  /** The algorithm (default: "fast"). */
  engine?: EngineName;
  /** 1 (or null): the WebAssembly modules have no threads; any other
   * value is a RangeError. */
  threads?: 1 | null;
  /** Count even what is estimated over maxSeconds. */
  force?: boolean;
  /** The longest count started without force, in seconds, by the
   * command line's estimate on one thread here (default 300). */
  maxSeconds?: number;
}

export interface Counts {
  n: number;
  engine: string;
  /** Every solution. */
  total: bigint;
  /** One per class of solutions under the board's 8 symmetries. */
  unique: bigint;
  /** The count's time in the worker, the module's start left out. */
  seconds: number;
}

/** The estimate a refused count carries on its RangeError. */
export interface Estimate {
  seconds: number;
  /** The interval, -1 where there is none. */
  low: number;
  high: number;
  /** The command line's words: "5.3 years (4.5-6.2)". */
  took: string;
}

export interface SolutionOptions {
  /** An engine that lists solutions: brute, backtrack, flags, bitmap
   * (default: the fastest of them). */
  engine?: EngineName;
  /** Columns from 1, as the literature and the lesson page count. */
  oneBased?: boolean;
  /** Only the smallest member of each symmetry class. */
  unique?: boolean;
  /** Stop after this many. */
  limit?: number | bigint;
}

export interface TraceOptions {
  /** An engine that shows its steps: brute, backtrack, flags, bitmap,
   * mirror, symmetry (default: "backtrack"). */
  engine?: EngineName;
  /** Stop after this many steps (default: none, the whole walk). */
  limit?: number | bigint;
  /** Rows and columns in the steps' text counted from 1 (queens and row,
   * col stay from 0, as in the command line's JSON). */
  oneBased?: boolean;
  /** The engine's explicit-stack form. */
  iterative?: boolean;
  /** "steps" (default) or "seed": how the text says each step. */
  style?: "steps" | "seed";
}

/** One step, as `nqueens trace N --json` prints it. */
export interface TraceStep {
  step: number;
  event: "place" | "reject" | "remove" | "solution" | "fail";
  row: number;
  col: number;
  /** The board after the step: the column of each filled row, from 0. */
  queens: number[];
  /** The step as the command line's text says it. */
  text: string;
}

export interface Engine {
  name: string;
  /** The largest N it takes. */
  maxN: number;
  /** Lists solutions (solutions()). */
  lists: boolean;
  /** Splits the board into units. */
  units: boolean;
  /** Shows its steps (trace()). */
  events: boolean;
  summary: string;
}

/** Counts of the N x N board, in a worker.  Rejects with a TypeError for
 * an argument of the wrong type, a RangeError for one refused (N off the
 * engine's range, an unknown engine, a count estimated too long: then
 * with `estimate`), in the command line's words. */
export function count(n: number, options?: CountOptions): Promise<Counts>;

/** The solutions in board order, each the column of each row; lazy:
 * made only as fast as they are read, and ended when the loop stops. */
export function solutions(n: number, options?: SolutionOptions): AsyncGenerator<number[], void, undefined>;

/** The engine's search step by step, lazy as solutions(). */
export function trace(n: number, options?: TraceOptions): AsyncGenerator<TraceStep, void, undefined>;

/** The engines, in the command line's order. */
export function engines(): Promise<Engine[]>;

/** The module this package runs here: "simd" where the engine validates
 * WebAssembly SIMD, else "scalar". */
export function flavour(): "simd" | "scalar";
