/** Invalid input: exit code 2 with one line on stderr. */
export class InputError extends Error {}
