// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), the
// counter-based generator behind CUDA's curand and PyTorch's CUDA generator: four random words
// from a 128-bit counter and a 64-bit key, with no state to carry between threads.

fn philox(counter: vec4<u32>, seed: vec2<u32>) -> vec4<u32> {
    var c = counter;
    var k = seed;
    for (var round = 0; round < 10; round++) {
        let p0 = u32_mul_wide(0xD2511F53u, c.x);
        let p1 = u32_mul_wide(0xCD9E8D57u, c.z);
        c = vec4<u32>(p1.y ^ c.y ^ k.x, p1.x, p0.y ^ c.w ^ k.y, p0.x);
        k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
    }
    return c;
}

// [0, 1) from a word's top 24 bits: every float32 value it gives is exact.
fn unit_interval(x: u32) -> f32 {
    return f32(x >> 8u) * (1.0 / 16777216.0);
}
