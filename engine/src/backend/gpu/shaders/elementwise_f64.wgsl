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

// a·b - fl(a·b), exactly (Dekker's product: each factor split into halves of 26 bits, whose
// products are exact), so that no fused multiply-add is needed: llvmpipe does not fuse f64's.
fn f64_product_error(a: f64, b: f64, p: f64) -> f64 {
    let ca = f64(134217729.0) * a;
    let ah = ca - (ca - a);
    let al = a - ah;
    let cb = f64(134217729.0) * b;
    let bh = cb - (cb - b);
    let bl = b - bh;
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

// C's fmod: x - y·trunc(x / y), exactly. The rounded quotient can be one past the true one
// (fmod(1, 0.0016): 1 / 0.0016 rounds to 625, the true quotient is 624.99…); the remainder then
// has the other sign than x, and one more |y| toward x's side puts it right.
fn f64_fmod(x: f64, y: f64) -> f64 {
    let q = trunc(x / y);
    let p = q * y;
    let r = (x - p) - f64_product_error(q, y, p);
    if f64_is_nan(r) || abs(q) > f64(9007199254740992.0) {
        return fma(-q, y, x);
    }
    let past = r != f64(0.0) && ((r < f64(0.0)) != (x < f64(0.0)));
    return select(r, r + select(abs(y), -abs(y), x < f64(0.0)), past);
}
