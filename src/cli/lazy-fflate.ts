import type * as Fflate from 'fflate';

// The Node bundles' fflate (scripts/build-node.mjs maps the bare 'fflate' here): fflate builds
// its Huffman tables as it loads, a cost (about 2 ms) every command's start-up paid, while only
// a deflated permalink (--link with z=, src/core/config/link-compress.ts) uses it. require() of a
// bundled ES module is initialized on its first call. 'fflate/browser' is fflate's plain build:
// its Node build starts by loading worker_threads (for an asynchronous API not used here).
let real: typeof Fflate | undefined;
const load = (): typeof Fflate => (real ??= require('fflate/browser') as typeof Fflate);

export const deflateSync = ((...args: Parameters<typeof Fflate.deflateSync>) => load().deflateSync(...args)) as typeof Fflate.deflateSync;
export const inflateSync = ((...args: Parameters<typeof Fflate.inflateSync>) => load().inflateSync(...args)) as typeof Fflate.inflateSync;
