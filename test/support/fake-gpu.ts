// A recording stand-in for a WebGPU device (Node has none): counts buffers made and destroyed,
// dispatches, maps and writes, and reads back zeros. test/webgpu-shard.test.ts, test/webgpu-mlp.test.ts.

export interface Log {
  /** The error the next dispatch's validation scope reports (null: none). */
  refuse?: { message: string } | null;
  /** [first, end) of the runs of each dispatch. */
  params?: [number, number][];
  created: number;
  destroyed: number;
  dispatches: number;
  maps: number;
  /** Maps ended (a buffer left mapped cannot be mapped again). */
  unmaps?: number;
  writes: { buffer: number; bytes: number }[];
  K: number[];
  /** The adapter's maxStorageBufferBindingSize (128 MiB unless given). */
  bindLimit?: number;
}

export function fakeDevice(log: Log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [] }): GPUDevice {
  let id = 0;
  const buffer = (size: number) => {
    const me = id++;
    log.created++;
    return {
      id: me,
      size,
      destroy: () => void log.destroyed++,
      mapAsync: async () => void log.maps++,
      getMappedRange: (_o: number, n: number) => new ArrayBuffer(n),
      unmap: () => void (log.unmaps = (log.unmaps ?? 0) + 1),
    };
  };
  const pass = { setPipeline() {}, setBindGroup() {}, dispatchWorkgroups: () => void log.dispatches++, end() {} };
  return {
    limits: { maxStorageBufferBindingSize: log.bindLimit ?? 2 ** 27 },
    createBuffer: (d: { size: number }) => buffer(d.size),
    createShaderModule: (d: { code: string }) => ({ code: d.code, getCompilationInfo: async () => ({ messages: [] }) }),
    createComputePipelineAsync: async () => ({ getBindGroupLayout: () => ({}) }),
    createBindGroup: () => ({}),
    createCommandEncoder: () => ({ beginComputePass: () => pass, copyBufferToBuffer() {}, finish: () => ({}) }),
    pushErrorScope() {},
    popErrorScope: async () => log.refuse,
    queue: {
      writeBuffer: (b: { id: number }, _o: number, data: ArrayBufferView) => {
        log.writes.push({ buffer: b.id, bytes: data.byteLength });
        if (data instanceof Uint32Array && data.length === 4) {
          log.K.push(data[1]!);
          log.params?.push([data[3]!, data[0]!]);
        }
      },
      submit() {},
    },
  } as unknown as GPUDevice;
}

