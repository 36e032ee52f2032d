import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { ConfigError } from '../../core/config/fields';
import { selectBackend, type BackendName, type BackendReport } from './backend';
import { NODE_BACKENDS as NODE_BACKENDS_LIST } from '../../core/options';

// Node: the pure-JS cpu backend and the wasm backend (tfjs-node cannot be installed here).
tf.env().set('PROD', true); // no "install tfjs-node" banner; tfjs's debug checks off
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);

export const NODE_BACKENDS: BackendName[] = [...NODE_BACKENDS_LIST];

/** wasm first (about twice as fast as cpu here), cpu if wasm fails; or exactly the one asked for. */
export function nodeBackend(asked: BackendName | null): Promise<BackendReport> {
  if (asked && !NODE_BACKENDS.includes(asked)) throw new ConfigError('backend', `must be wasm or cpu in Node (${asked} runs in the browser only), got "${asked}"`);
  return selectBackend(asked ? [asked] : NODE_BACKENDS, { why: asked ? `asked for ${asked}` : undefined });
}
