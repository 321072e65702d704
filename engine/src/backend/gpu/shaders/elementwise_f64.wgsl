// float64 conversions, included only in kernels that touch float64 (the adapter has SHADER_F64).

fn i64_to_f64(a: vec2<u32>) -> f64 {
    let m = i64_abs(a);
    let magnitude = f64(m.y) * f64(4294967296.0) + f64(m.x);
    return select(magnitude, -magnitude, i64_is_negative(a));
}

// NaN is the value not equal to itself under an ordered `==` (see `f32_is_nan`).
fn f64_is_nan(x: f64) -> bool {
    return !(x == x);
}

fn f64_to_i64(x: f64) -> vec2<u32> {
    if f64_is_nan(x) {
        return vec2<u32>(0u, 0u);
    }
    if x >= f64(9223372036854775807.0) {
        return vec2<u32>(0xffffffffu, 0x7fffffffu);
    }
    if x <= f64(-9223372036854775808.0) {
        return vec2<u32>(0u, 0x80000000u);
    }
    let m = trunc(abs(x));
    let hi = floor(m / f64(4294967296.0));
    let lo = m - hi * f64(4294967296.0);
    let magnitude = vec2<u32>(u32(lo), u32(hi));
    return select(magnitude, i64_neg(magnitude), x < f64(0.0));
}
