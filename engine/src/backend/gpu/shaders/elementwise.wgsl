// Helpers shared by every generated elementwise kernel (see `elementwise.rs`, which appends the
// bindings, the per-operand loads, the operation and the store).
//
// Integer arithmetic runs on 64-bit values held as vec2<u32>(low word, high word), because WGSL
// has no 64-bit integers and PyTorch computes every integer op of int64 tensors in 64 bits. The
// results wrap exactly as two's-complement int64 arithmetic does.

// NaN and infinity come from a buffer read: browsers (Tint) refuse them as constant expressions.
fn nan() -> f32 {
    return bitcast<f32>(0x7fc00000u | (dims[0] & 0u));
}

fn infinity() -> f32 {
    return bitcast<f32>(0x7f800000u | (dims[0] & 0u));
}

// NaN is recognised by its bits: a shader compiler may compile `x != x` as an ordered comparison,
// which is false for NaN (lavapipe does).
fn f32_is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}

// ---- dims: [numel, row_stride, output offset, rank, shape[rank], per operand: offset, strides[rank]] ----

fn element_offset(k: u32, operand: u32) -> u32 {
    let rank = dims[3];
    let base = 4u + rank + operand * (rank + 1u);
    var rest = k;
    var offset = dims[base];
    for (var d = i32(rank) - 1; d >= 0; d--) {
        let size = dims[4u + u32(d)];
        offset += (rest % size) * dims[base + 1u + u32(d)];
        rest /= size;
    }
    return offset;
}

// ---- int64 as vec2<u32> ----

fn i64_from_i32(x: i32) -> vec2<u32> {
    return vec2<u32>(bitcast<u32>(x), select(0u, 0xffffffffu, x < 0));
}

fn i64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn i64_neg(a: vec2<u32>) -> vec2<u32> {
    return i64_add(~a, vec2<u32>(1u, 0u));
}

fn i64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return i64_add(a, i64_neg(b));
}

fn i64_is_negative(a: vec2<u32>) -> bool {
    return (a.y & 0x80000000u) != 0u;
}

// The full 64-bit product of two 32-bit words, from 16-bit halves.
fn u32_mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return vec2<u32>((p00 & 0xffffu) | (mid << 16u), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

fn i64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let w = u32_mul_wide(a.x, b.x);
    return vec2<u32>(w.x, w.y + a.x * b.y + a.y * b.x);
}

fn i64_eq(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.x == b.x && a.y == b.y;
}

fn i64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    if a.y != b.y {
        return bitcast<i32>(a.y) < bitcast<i32>(b.y);
    }
    return a.x < b.x;
}

fn i64_abs(a: vec2<u32>) -> vec2<u32> {
    return select(a, i64_neg(a), i64_is_negative(a));
}

fn i64_max(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return select(a, b, i64_lt(a, b));
}

fn i64_min(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return select(a, b, i64_lt(b, a));
}

fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn u64_shl1(a: vec2<u32>, bit: u32) -> vec2<u32> {
    return vec2<u32>((a.x << 1u) | bit, (a.y << 1u) | (a.x >> 31u));
}

// Unsigned division of magnitudes, one bit at a time: returns (quotient, remainder).
fn u64_divmod(n: vec2<u32>, d: vec2<u32>) -> array<vec2<u32>, 2> {
    var q = vec2<u32>(0u, 0u);
    var r = vec2<u32>(0u, 0u);
    for (var i = 63; i >= 0; i--) {
        let word = select(n.x, n.y, i >= 32);
        let bit = (word >> (u32(i) & 31u)) & 1u;
        r = u64_shl1(r, bit);
        q = u64_shl1(q, 0u);
        if !u64_lt(r, d) {
            r = i64_sub(r, d);
            q.x |= 1u;
        }
    }
    return array<vec2<u32>, 2>(q, r);
}

// Truncating division and its remainder (C's `/` and `%`); a zero divisor gives zeros (the
// engine refuses integer division by zero before launching).
fn i64_divmod_trunc(a: vec2<u32>, b: vec2<u32>) -> array<vec2<u32>, 2> {
    if i64_eq(b, vec2<u32>(0u, 0u)) {
        return array<vec2<u32>, 2>(vec2<u32>(0u, 0u), vec2<u32>(0u, 0u));
    }
    let qr = u64_divmod(i64_abs(a), i64_abs(b));
    let q = select(qr[0], i64_neg(qr[0]), i64_is_negative(a) != i64_is_negative(b));
    let r = select(qr[1], i64_neg(qr[1]), i64_is_negative(a));
    return array<vec2<u32>, 2>(q, r);
}

// Python's `//` for integers: the quotient rounded toward negative infinity.
fn i64_floor_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let qr = i64_divmod_trunc(a, b);
    let zero = vec2<u32>(0u, 0u);
    let adjust = !i64_eq(qr[1], zero) && (i64_is_negative(qr[1]) != i64_is_negative(b));
    return select(qr[0], i64_sub(qr[0], vec2<u32>(1u, 0u)), adjust);
}

// Python's `%` for integers: the remainder takes the divisor's sign.
fn i64_remainder(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let r = i64_divmod_trunc(a, b)[1];
    let zero = vec2<u32>(0u, 0u);
    let adjust = !i64_eq(r, zero) && (i64_is_negative(r) != i64_is_negative(b));
    return select(r, i64_add(r, b), adjust);
}

fn i64_pow(base: vec2<u32>, exponent: vec2<u32>) -> vec2<u32> {
    let one = vec2<u32>(1u, 0u);
    if i64_is_negative(exponent) {
        // Only 1 and -1 have integer reciprocals.
        if i64_eq(base, one) {
            return one;
        }
        if i64_eq(base, vec2<u32>(0xffffffffu, 0xffffffffu)) {
            return select(base, one, (exponent.x & 1u) == 0u);
        }
        return vec2<u32>(0u, 0u);
    }
    var result = one;
    var b = base;
    var e = exponent;
    for (var i = 0; i < 64; i++) {
        if (e.x & 1u) != 0u {
            result = i64_mul(result, b);
        }
        b = i64_mul(b, b);
        e = vec2<u32>((e.x >> 1u) | (e.y << 31u), e.y >> 1u);
    }
    return result;
}

fn i64_to_f32(a: vec2<u32>) -> f32 {
    let m = i64_abs(a);
    let magnitude = f32(m.y) * 4294967296.0 + f32(m.x);
    return select(magnitude, -magnitude, i64_is_negative(a));
}

// Truncation toward zero, saturating like Rust's `as` (NaN becomes 0).
fn f32_to_i64(x: f32) -> vec2<u32> {
    if f32_is_nan(x) {
        return vec2<u32>(0u, 0u);
    }
    if x >= 9223372036854775807.0 {
        return vec2<u32>(0xffffffffu, 0x7fffffffu);
    }
    if x <= -9223372036854775808.0 {
        return vec2<u32>(0u, 0x80000000u);
    }
    let m = trunc(abs(x));
    let hi = floor(m / 4294967296.0);
    let lo = m - hi * 4294967296.0;
    let magnitude = vec2<u32>(u32(lo), u32(hi));
    return select(magnitude, i64_neg(magnitude), x < 0.0);
}

// ---- float32 ----

fn f32_maximum(a: f32, b: f32) -> f32 {
    return select(b, a, f32_is_nan(a) || a > b);
}

fn f32_minimum(a: f32, b: f32) -> f32 {
    return select(b, a, f32_is_nan(a) || a < b);
}

// `pow` as C's powf: negative bases with integral exponents are defined.
fn f32_pow(x: f32, e: f32) -> f32 {
    if e == 0.0 {
        return 1.0;
    }
    if x == 0.0 {
        return select(0.0, infinity(), e < 0.0);
    }
    if x < 0.0 {
        if e != trunc(e) {
            return nan();
        }
        let magnitude = exp2(e * log2(-x));
        return select(magnitude, -magnitude, abs(e % 2.0) == 1.0);
    }
    return exp2(e * log2(x));
}

fn f32_log(x: f32) -> f32 {
    if x < 0.0 || f32_is_nan(x) {
        return nan();
    }
    if x == 0.0 {
        return -infinity();
    }
    return log(x);
}

fn f32_sqrt(x: f32) -> f32 {
    return select(sqrt(x), nan(), x < 0.0);
}

fn f32_relu(x: f32) -> f32 {
    return select(0.0, x, x > 0.0 || f32_is_nan(x));
}

fn f32_sigmoid(x: f32) -> f32 {
    return 1.0 / (1.0 + exp(-x));
}

// tanh from exp of a non-positive argument, so large inputs give ±1 instead of inf/inf.
fn f32_tanh(x: f32) -> f32 {
    let e = exp(-2.0 * abs(x));
    let t = (1.0 - e) / (1.0 + e);
    return select(t, -t, x < 0.0);
}

// ---- bfloat16: the high half of a float32, rounded to nearest even ----

fn bf16_bits(x: f32) -> u32 {
    if f32_is_nan(x) {
        return 0x7fc0u;
    }
    let b = bitcast<u32>(x);
    return (b + 0x7fffu + ((b >> 16u) & 1u)) >> 16u;
}

fn bf16_value(bits: u32) -> f32 {
    return bitcast<f32>(bits << 16u);
}

fn f16_bits(x: f32) -> u32 {
    return pack2x16float(vec2<f32>(x, 0.0)) & 0xffffu;
}
