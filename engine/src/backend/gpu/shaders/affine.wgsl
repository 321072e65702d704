// y = a * x + b, elementwise over a flat float32 array.
//
// The dispatch grid is two-dimensional because WebGPU allows at most 65,535 workgroups per
// dimension: thread (x, y) handles element y * row_stride + x, and threads past the end do nothing.

struct Params {
    a: f32,
    b: f32,
    len: u32,
    row_stride: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.y * params.row_stride + gid.x;
    if i >= params.len {
        return;
    }
    y[i] = params.a * x[i] + params.b;
}
