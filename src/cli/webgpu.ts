// Node has no WebGPU here: a config asking for the WebGPU executor gets one line instead of a run.
export const WEBGPU_IN_NODE = 'must be "auto", "cpu" or "tensor" on the command line: "webgpu" runs in the browser only (Node has no WebGPU here); "cpu" is the float64 reference it agrees with within float32 rounding';
