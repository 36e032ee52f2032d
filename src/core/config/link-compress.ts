import { deflateSync, inflateSync } from 'fflate';

// Long permalinks (custom reward tables) travel deflated and base64url-encoded (`z=`). Inflating
// stops at a size limit, so a small link cannot expand into gigabytes.

/** A link's pairs may inflate to at most this many bytes. */
export const MAX_INFLATED_BYTES = 1 << 20;

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function compressText(text: string): string {
  return toBase64Url(deflateSync(new TextEncoder().encode(text), { level: 9 }));
}

/** The text a `z=` value holds, or a reason it holds none. */
export function decompressText(z: string): { ok: true; text: string } | { ok: false; why: string } {
  if (z === '') return { ok: false, why: 'is empty: the link holds no document (copy the link again)' };
  const bytes = fromBase64Url(z);
  if (!bytes) return { ok: false, why: 'is not base64url text (A–Z, a–z, 0–9, -, _)' };
  let all: Uint8Array;
  try {
    // a fixed output buffer one byte over the limit: inflation stops there instead of growing
    all = inflateSync(bytes, { out: new Uint8Array(MAX_INFLATED_BYTES + 1) });
  } catch {
    return { ok: false, why: 'is not a complete deflated link (it may have been cut short)' };
  }
  if (all.length > MAX_INFLATED_BYTES) return { ok: false, why: `inflates past ${MAX_INFLATED_BYTES.toLocaleString('en-US')} bytes` };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(all) };
  } catch {
    return { ok: false, why: 'does not inflate to text' };
  }
}
