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

fn i64_sign(a: vec2<u32>) -> vec2<u32> {
    if i64_is_negative(a) {
        return vec2<u32>(0xffffffffu, 0xffffffffu);
    }
    return vec2<u32>(u32(a.x != 0u || a.y != 0u), 0u);
}

fn i64_max(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return select(a, b, i64_lt(a, b));
}

fn i64_min(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return select(a, b, i64_lt(b, a));
}

// `a << s` and `a >> s` as ATen's lshift/rshift kernels: a shift by a negative amount or by 64
// or more gives 0 (left) or the sign (right). WGSL takes shift amounts modulo 32, so each case
// keeps its amounts below 32.
fn i64_shift_in_range(s: vec2<u32>) -> bool {
    return s.y == 0u && s.x < 64u;
}

fn i64_shl(a: vec2<u32>, s: vec2<u32>) -> vec2<u32> {
    let n = s.x;
    if !i64_shift_in_range(s) {
        return vec2<u32>(0u, 0u);
    }
    if n == 0u {
        return a;
    }
    if n < 32u {
        return vec2<u32>(a.x << n, (a.y << n) | (a.x >> (32u - n)));
    }
    return vec2<u32>(0u, a.x << (n - 32u));
}

fn i64_shr(a: vec2<u32>, s: vec2<u32>) -> vec2<u32> {
    let n = select(63u, s.x, i64_shift_in_range(s));
    let high = bitcast<i32>(a.y);
    if n == 0u {
        return a;
    }
    if n < 32u {
        return vec2<u32>((a.x >> n) | (a.y << (32u - n)), bitcast<u32>(high >> n));
    }
    return vec2<u32>(bitcast<u32>(high >> (n - 32u)), bitcast<u32>(high >> 31u));
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
    return select(x, 0.0, x < 0.0);
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

// ---- trigonometry: Cephes' single-precision polynomials, so every adapter gives the CPU's values
// to a few ULP (Vulkan lets a driver's own sin be off by 2^-11, its asin by thousands of ULP) ----

// sin and cos of x, reduced by π/4 in three parts (exact to |x| < 8192; beyond, the driver's own).
fn f32_sincos(v: f32) -> vec2<f32> {
    let x = abs(v);
    if x > 8192.0 || f32_is_nan(v) {
        return vec2<f32>(sin(v), cos(v));
    }
    var j = u32(x * 1.2732395447351628);
    var y = f32(j);
    if (j & 1u) == 1u {
        j = j + 1u;
        y = y + 1.0;
    }
    j = j & 7u;
    var sin_sign = select(1.0, -1.0, v < 0.0);
    var cos_sign = 1.0;
    if j > 3u {
        sin_sign = -sin_sign;
        cos_sign = -cos_sign;
        j = j - 4u;
    }
    if j > 1u {
        cos_sign = -cos_sign;
    }
    let r = ((x - y * 0.78515625) - y * 2.4187564849853515625e-4) - y * 3.77489497744594108e-8;
    let z = r * r;
    let sp = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * r + r;
    let cp = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z
        - 0.5 * z + 1.0;
    if j == 1u || j == 2u {
        return vec2<f32>(sin_sign * cp, cos_sign * sp);
    }
    return vec2<f32>(sin_sign * sp, cos_sign * cp);
}

fn f32_tan(x: f32) -> f32 {
    let sc = f32_sincos(x);
    return sc.x / sc.y;
}

fn f32_atan(v: f32) -> f32 {
    var x = abs(v);
    var y = 0.0;
    if x > 2.414213562373095 {
        y = 1.5707963267948966;
        x = -1.0 / x;
    } else if x > 0.4142135623730950 {
        y = 0.7853981633974483;
        x = (x - 1.0) / (x + 1.0);
    }
    let z = x * x;
    y = y + (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - 3.33329491539e-1) * z * x + x;
    return select(y, -y, v < 0.0);
}

// asin of |v| <= 1 (NaN beyond), with the half-angle identity above 0.5.
fn f32_asin(v: f32) -> f32 {
    let a = abs(v);
    if a > 1.0 || f32_is_nan(v) {
        return nan();
    }
    var z = a * a;
    var x = a;
    let high = a > 0.5;
    if high {
        z = 0.5 * (1.0 - a);
        x = sqrt(z);
    }
    var r = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z
        + 1.6666752422e-1) * z * x + x;
    if high {
        r = 1.5707963267948966 - 2.0 * r;
    }
    return select(r, -r, v < 0.0);
}

// acos from asin where each keeps its precision: near 1 acos(x) = 2·asin(√((1-x)/2)).
fn f32_acos(x: f32) -> f32 {
    if abs(x) > 1.0 || f32_is_nan(x) {
        return nan();
    }
    if x < -0.5 {
        return 3.141592653589793 - 2.0 * f32_asin(sqrt(0.5 * (1.0 + x)));
    }
    if x > 0.5 {
        return 2.0 * f32_asin(sqrt(0.5 * (1.0 - x)));
    }
    return 1.5707963267948966 - f32_asin(x);
}

// atan2(y, x) from atan of the ratio, placed in its quadrant, with C's answers for zeros and
// infinities.
fn f32_atan2(y: f32, x: f32) -> f32 {
    if f32_is_nan(x) || f32_is_nan(y) {
        return nan();
    }
    let y_negative = (bitcast<u32>(y) >> 31u) == 1u;
    let x_negative = (bitcast<u32>(x) >> 31u) == 1u;
    var r: f32;
    if abs(x) == infinity() && abs(y) == infinity() {
        r = select(0.7853981633974483, 2.356194490192345, x_negative);
    } else if y == 0.0 {
        r = select(0.0, 3.141592653589793, x_negative);
    } else if x == 0.0 {
        r = 1.5707963267948966;
    } else {
        r = f32_atan(abs(y / x));
        if x < 0.0 {
            r = 3.141592653589793 - r;
        }
    }
    return select(r, -r, y_negative);
}

// hypot without overflow or underflow of the squares: the larger side times √(1 + ratio²).
fn f32_hypot(x: f32, y: f32) -> f32 {
    let a = max(abs(x), abs(y));
    let b = min(abs(x), abs(y));
    if a == infinity() {
        return a;
    }
    if f32_is_nan(x) || f32_is_nan(y) {
        return nan();
    }
    if a == 0.0 {
        return 0.0;
    }
    let t = b / a;
    return a * sqrt(1.0 + t * t);
}

// C's fmod: the remainder after a truncated quotient, computed with one rounding (fma), and
// moved back by |b| where the quotient a / b rounded up to the next integer.
fn f32_fmod(a: f32, b: f32) -> f32 {
    var r = fma(-trunc(a / b), b, a);
    if r != 0.0 && (r < 0.0) != (a < 0.0) {
        r = r + select(abs(b), -abs(b), a < 0.0);
    }
    return r;
}

// Python's `//` as PyTorch's div_floor_floating computes it (1 // 0.1 is 9, inf // 1 is NaN).
fn f32_div_floor(a: f32, b: f32) -> f32 {
    if b == 0.0 {
        return a / b;
    }
    let m = f32_fmod(a, b);
    var d = (a - m) / b;
    if m != 0.0 && (b < 0.0) != (m < 0.0) {
        d = d - 1.0;
    }
    if d != 0.0 {
        let f = floor(d);
        return select(f, f + 1.0, d - f > 0.5);
    }
    return select(0.0, -0.0, (a < 0.0) != (b < 0.0));
}

// Python's `%`: fmod moved into the divisor's sign.
fn f32_remainder(a: f32, b: f32) -> f32 {
    let m = f32_fmod(a, b);
    return select(m, m + b, m != 0.0 && (b < 0.0) != (m < 0.0));
}

fn f32_sign(x: f32) -> f32 {
    // NaN has no sign: 0, as PyTorch's `(0 < x) - (x < 0)`.
    return select(select(0.0, -1.0, x < 0.0), 1.0, x > 0.0);
}

fn f32_log2(x: f32) -> f32 {
    if x < 0.0 || f32_is_nan(x) {
        return nan();
    }
    if x == 0.0 {
        return -infinity();
    }
    return log2(x);
}

// exp(x) - 1 without cancellation near 0 (Kahan: the rounding of exp(x) cancels in (u-1)/log(u)).
fn f32_expm1(x: f32) -> f32 {
    let u = exp(x);
    if u == 1.0 {
        return x;
    }
    let um1 = u - 1.0;
    if um1 == -1.0 {
        return -1.0;
    }
    if u == infinity() {
        return u;
    }
    return um1 * x / log(u);
}

// log(1 + x) without losing x's low bits near 0 (the same trick as expm1).
fn f32_log1p(x: f32) -> f32 {
    let u = 1.0 + x;
    if u == 1.0 {
        return x;
    }
    if u == infinity() {
        return u;
    }
    return f32_log(u) * x / (u - 1.0);
}

fn f32_sinh(x: f32) -> f32 {
    let a = abs(x);
    var s: f32;
    if a < 1.0 {
        let e = f32_expm1(a);
        s = 0.5 * (e + e / (e + 1.0));
    } else {
        let e = exp(a);
        s = 0.5 * (e - 1.0 / e);
    }
    return select(s, -s, x < 0.0);
}

fn f32_cosh(x: f32) -> f32 {
    let e = exp(abs(x));
    return 0.5 * (e + 1.0 / e);
}

fn f32_asinh(x: f32) -> f32 {
    let a = abs(x);
    var r: f32;
    if a > 1e18 {
        r = f32_log(a) + 0.6931471805599453;
    } else {
        r = f32_log1p(a + a * a / (1.0 + sqrt(1.0 + a * a)));
    }
    return select(r, -r, x < 0.0);
}

fn f32_acosh(x: f32) -> f32 {
    if x < 1.0 {
        return nan();
    }
    if x > 1e18 {
        return f32_log(x) + 0.6931471805599453;
    }
    let t = x - 1.0;
    return f32_log1p(t + sqrt(2.0 * t + t * t));
}

fn f32_atanh(x: f32) -> f32 {
    let a = abs(x);
    if a > 1.0 {
        return nan();
    }
    let r = 0.5 * f32_log1p(2.0 * a / (1.0 - a));
    return select(r, -r, x < 0.0);
}

// erf by its Taylor series where |x| < 1 (12 terms: 1e-10 relative), erfc elsewhere.
fn f32_erf_series(x: f32) -> f32 {
    let s = x * x;
    var term = x;
    var sum = 0.0;
    for (var k = 0u; k < 12u; k = k + 1u) {
        sum = sum + term / f32(2u * k + 1u);
        term = term * -s / f32(k + 1u);
    }
    return sum * 1.1283791670955126;
}

// erfc(a) for a >= 0 to a relative 1.1e-7 everywhere (the Chebyshev fit of Numerical Recipes' erfcc).
fn f32_erfc_positive(a: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.5 * a);
    let p = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
        + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
    return t * exp(-a * a + p);
}

fn f32_erf(x: f32) -> f32 {
    if abs(x) < 1.0 {
        return f32_erf_series(x);
    }
    let r = 1.0 - f32_erfc_positive(abs(x));
    return select(r, -r, x < 0.0);
}

fn f32_erfc(x: f32) -> f32 {
    if abs(x) < 0.5 {
        return 1.0 - f32_erf_series(x);
    }
    if x > 0.0 {
        return f32_erfc_positive(x);
    }
    return 2.0 - f32_erfc_positive(-x);
}

// PyTorch's calc_erfinv: a rational first guess, then two Newton steps on erf.
fn f32_erfinv(y: f32) -> f32 {
    let a = abs(y);
    if a > 1.0 || f32_is_nan(y) {
        return nan();
    }
    if a == 1.0 {
        return select(infinity(), -infinity(), y < 0.0);
    }
    var x: f32;
    if a <= 0.7 {
        let z = y * y;
        let num = ((-0.140543331 * z + 0.914624893) * z - 1.645349621) * z + 0.886226899;
        let den = (((0.012229801 * z - 0.329097515) * z + 1.442710462) * z - 2.118377725) * z + 1.0;
        x = y * num / den;
    } else {
        let z = sqrt(-log((1.0 - a) / 2.0));
        let num = ((1.641345311 * z + 3.429567803) * z - 1.624906493) * z - 1.970840454;
        let den = (1.6370678 * z + 3.5438892) * z + 1.0;
        x = select(num, -num, y < 0.0) / den;
    }
    for (var k = 0u; k < 2u; k = k + 1u) {
        x = x - (f32_erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    }
    return x;
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
