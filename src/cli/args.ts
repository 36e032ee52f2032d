/** Tiny argv parser: positional arguments and --flag / --flag value options. */
export interface Args {
  positional: string[];
  flags: Map<string, string | true>;
}

const BOOLEAN = new Set(['debug', 'help', 'quiet']);

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
      else if (BOOLEAN.has(a.slice(2)) || i + 1 >= argv.length || argv[i + 1].startsWith('--')) flags.set(a.slice(2), true);
      else flags.set(a.slice(2), argv[++i]);
    } else positional.push(a);
  }
  return { positional, flags };
}
