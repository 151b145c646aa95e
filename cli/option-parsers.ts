import { InvalidArgumentError } from 'commander';

/**
 * The command line's number options, parsed by their exact written form: `Number()` alone would take
 * '' as 0, ' 3 ' as 3 and '0x10' as 16.
 */
export function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`expected a whole number of at least 1, got '${value}'`);
  return Number(value);
}

export function finiteNumber(value: string): number {
  if (!/^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(value) || !Number.isFinite(Number(value))) throw new InvalidArgumentError(`expected a number such as 0.7, got '${value}'`);
  return Number(value);
}

/** Runs a parser that throws a plain error, as commander's InvalidArgumentError (the usage message it prints). */
export function asOptionParser<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/** A TCP port to listen on (1 to 65535). */
export function portNumber(value: string): number {
  if (!/^[1-9]\d{0,4}$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError(`expected a port from 1 to 65535, got '${value}'`);
  return Number(value);
}
