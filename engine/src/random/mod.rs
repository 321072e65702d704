//! Random numbers identical to PyTorch's CPU generator: the same Mersenne Twister
//! (aten/src/ATen/core/MT19937RNGEngine.h), the same transforms from raw bits to uniform, normal
//! and integer values (aten/src/ATen/core/TransformationHelper.h, DistributionsHelper.h) and the
//! same kernels (aten/src/ATen/native/cpu/DistributionTemplates.h, DistributionKernels.cpp),
//! including the vectorised Box–Muller path `randn` takes for 16 or more float32 values on AVX2
//! machines, whose `log` and `sincos` come from avx_mathfun.h. So `torch.manual_seed(0)` followed
//! by `torch.randn(...)` prints what a learner's own PyTorch prints.

use crate::dtype::DType;
use crate::element::{Element, Scalar};
use crate::storage::CpuStorage;

mod distributions;
mod state;

pub use distributions::MultinomialRowError;
pub use state::{STATE_SIZE, StateError};

/// PyTorch's seed for the default CPU generator before any `manual_seed`.
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

const N: usize = 624;
const M: usize = 397;

/// MT19937, the Mersenne Twister both PyTorch's CPU generator and CPython's `random` draw
/// from; they differ in how they seed it ([`Mt19937::new`], [`Mt19937::from_key`]).
#[derive(Debug, Clone)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
    /// Whether the state words were ever regenerated: a fresh seed and a used-up block both
    /// regenerate at the next draw, but PyTorch's saved state tells them apart.
    regenerated: bool,
}

impl Mt19937 {
    /// Seeded as `at::mt19937` seeds it (from the low 32 bits of the seed).
    pub fn new(seed: u64) -> Self {
        let mut state = [0u32; N];
        state[0] = seed as u32;
        for j in 1..N {
            state[j] = 1_812_433_253u32
                .wrapping_mul(state[j - 1] ^ (state[j - 1] >> 30))
                .wrapping_add(j as u32);
        }
        Mt19937 {
            state,
            index: N,
            regenerated: false,
        }
    }

    /// Seeded as CPython's `random.seed(n)` seeds it: `init_by_array` over the 32-bit words of
    /// `|n|`, least significant first.
    pub fn from_key(key: &[u32]) -> Self {
        let mut r = Mt19937::new(19_650_218);
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        let (mut i, mut j) = (1usize, 0usize);
        let mt = &mut r.state;
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    /// The 624 state words and the position in them (CPython's `getstate()`).
    pub fn state(&self) -> (&[u32], usize) {
        (&self.state, self.index)
    }

    /// A generator at a state [`Mt19937::state`] gave (`None` unless 624 words and a position
    /// up to 624).
    pub fn from_state(words: &[u32], index: usize) -> Option<Self> {
        let state: [u32; N] = words.try_into().ok()?;
        (index <= N).then_some(Mt19937 {
            state,
            index,
            regenerated: true,
        })
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.regenerated = true;
            for i in 0..N {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % N] & 0x7fff_ffff);
                let mut next = self.state[(i + M) % N] ^ (y >> 1);
                if y & 1 != 0 {
                    next ^= 0x9908_b0df;
                }
                self.state[i] = next;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

/// A `torch.Generator` a cell holds: one it made (`torch.Generator()`), whose state everyone
/// holding it shares (a DataLoader's `generator=`, say), or the session's default CPU generator
/// (`torch.default_generator`, what `torch.manual_seed` returns).
#[derive(Debug, Clone)]
pub enum GeneratorHandle {
    Default,
    Own(std::rc::Rc<std::cell::RefCell<Generator>>),
}

impl Default for GeneratorHandle {
    /// `torch.Generator()`: a new generator with PyTorch's default seed.
    fn default() -> Self {
        GeneratorHandle::Own(Default::default())
    }
}

impl GeneratorHandle {
    /// Runs `f` with the generator itself.
    pub fn with<T>(&self, session: &crate::Session, f: impl FnOnce(&mut Generator) -> T) -> T {
        match self {
            GeneratorHandle::Default => session.with_generator(crate::Device::CPU, f),
            GeneratorHandle::Own(g) => f(&mut g.borrow_mut()),
        }
    }

    /// `generator.manual_seed(seed)`.
    pub fn manual_seed(&self, session: &crate::Session, seed: u64) {
        self.with(session, |g| *g = Generator::new(seed));
    }

    /// `generator.initial_seed()`.
    pub fn initial_seed(&self, session: &crate::Session) -> u64 {
        self.with(session, |g| g.seed())
    }

    /// The generator an op draws from instead of the default one (`None`: the default).
    pub(crate) fn own(&self) -> Option<std::rc::Rc<std::cell::RefCell<Generator>>> {
        match self {
            GeneratorHandle::Default => None,
            GeneratorHandle::Own(g) => Some(g.clone()),
        }
    }
}

/// A seed no program can predict, for `torch.seed()` and `Generator.seed()`: the browser's
/// `Math.random`, or the OS's randomness behind std's hash keys natively.
pub fn nondeterministic_seed() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        let hi = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        let lo = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        (hi << 32) | lo
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(0);
        hasher.finish()
    }
}

/// `torch.Generator` on the CPU.
#[derive(Debug, Clone)]
pub struct Generator {
    seed: u64,
    /// How many draws a GPU made from this seed: a CUDA generator's Philox offset, the counter
    /// space each draw takes (see `backend/gpu/random.rs`).
    philox_offset: u64,
    engine: Mt19937,
    /// Box–Muller makes values in pairs; the scalar path keeps the second for the next call.
    next_double_normal: Option<f64>,
}

impl Default for Generator {
    fn default() -> Self {
        Generator::new(DEFAULT_SEED)
    }
}

impl Generator {
    /// `torch.manual_seed(seed)` / `Generator().manual_seed(seed)`.
    pub fn new(seed: u64) -> Self {
        Generator {
            seed,
            philox_offset: 0,
            engine: Mt19937::new(seed),
            next_double_normal: None,
        }
    }

    /// `initial_seed()`.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The key and counter of a GPU draw: the seed and the Philox offset, which the draw
    /// advances.
    pub fn philox(&mut self) -> (u64, u64) {
        let offset = self.philox_offset;
        self.philox_offset += 1;
        (self.seed, offset)
    }

    fn random(&mut self) -> u32 {
        self.engine.next_u32()
    }

    fn random64(&mut self) -> u64 {
        let hi = self.random();
        let lo = self.random();
        (u64::from(hi) << 32) | u64::from(lo)
    }

    /// `torch.empty((), dtype=torch.int64).random_()`: 64 random bits below 2^63 (how DataLoader
    /// and RandomSampler draw their seeds).
    pub fn random_int64(&mut self) -> i64 {
        (self.random64() % (1u64 << 63)) as i64
    }

    /// `uniform_real_distribution<float>`: `digits` random bits (24 for float) scaled into [from, to).
    fn uniform_f32(&mut self, digits: u32, from: f32, to: f32) -> f32 {
        let bits = self.random() & ((1u32 << digits) - 1);
        let x = bits as f32 / (1u64 << digits) as f32;
        // PyTorch's build contracts `x * (to - from) + from` into one fused multiply-add.
        x.mul_add(to - from, from)
    }

    /// `uniform_real_distribution<double>` (53 random bits from two draws).
    fn uniform_f64(&mut self, from: f64, to: f64) -> f64 {
        let bits = self.random64() & ((1u64 << 53) - 1);
        let x = bits as f64 / (1u64 << 53) as f64;
        x * (to - from) + from
    }

    /// One value of `normal_distribution<double>`, with its cached partner.
    fn normal_f64(&mut self, mean: f64, std: f64) -> f64 {
        if let Some(cached) = self.next_double_normal.take() {
            return cached * std + mean;
        }
        let u1 = self.uniform_f64(0.0, 1.0);
        let u2 = self.uniform_f64(0.0, 1.0);
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.next_double_normal = Some(r * theta.sin());
        r * theta.cos() * std + mean
    }

    /// `tensor.uniform_(from, to)` / `torch.rand`: `n` values in order.
    pub fn uniform(&mut self, dtype: DType, n: usize, from: f64, to: f64) -> Option<CpuStorage> {
        Some(match dtype {
            DType::Float32 => CpuStorage::F32(
                (0..n)
                    .map(|_| self.uniform_f32(24, from as f32, to as f32))
                    .collect(),
            ),
            DType::Float64 => CpuStorage::F64((0..n).map(|_| self.uniform_f64(from, to)).collect()),
            DType::Float16 => CpuStorage::F16(self.uniform_16bit(n, from, to)),
            DType::BFloat16 => CpuStorage::BF16(self.uniform_16bit(n, from, to)),
            _ => return None,
        })
    }

    /// float16 and bfloat16 draw as float (24 bits, in float arithmetic) and round the result; the
    /// bounds are first cast to the 16-bit type.
    fn uniform_16bit<T: Element>(&mut self, n: usize, from: f64, to: f64) -> Vec<T> {
        let round = |v: f64| T::from_scalar(Scalar::Float(v)).to_scalar().as_f64() as f32;
        let (from, to) = (round(from), round(to));
        (0..n)
            .map(|_| T::from_scalar(Scalar::Float(f64::from(self.uniform_f32(24, from, to)))))
            .collect()
    }

    /// `tensor.normal_(mean, std)` / `torch.randn`: PyTorch's CPU `normal_kernel`. Tensors of 16 or
    /// more contiguous elements take the batched Box–Muller fill; smaller or non-contiguous ones
    /// the scalar distribution (whose cached partner value carries over to the next call).
    pub fn normal(
        &mut self,
        dtype: DType,
        n: usize,
        contiguous: bool,
        mean: f64,
        std: f64,
    ) -> Option<CpuStorage> {
        if !dtype.is_floating_point() {
            return None;
        }
        if n < 16 || !contiguous {
            let values: Vec<Scalar> = (0..n)
                .map(|_| Scalar::Float(self.normal_f64(mean, std)))
                .collect();
            return Some(CpuStorage::from_scalars(dtype, &values));
        }
        Some(match dtype {
            DType::Float32 => {
                let mut data: Vec<f32> = (0..n).map(|_| self.uniform_f32(24, 0.0, 1.0)).collect();
                self.box_muller_fill(
                    &mut data,
                    |g| g.uniform_f32(24, 0.0, 1.0),
                    |chunk| avx2::normal_fill_16(chunk, mean as f32, std as f32),
                );
                CpuStorage::F32(data)
            }
            DType::Float64 => {
                let mut data: Vec<f64> = (0..n).map(|_| self.uniform_f64(0.0, 1.0)).collect();
                self.box_muller_fill(
                    &mut data,
                    |g| g.uniform_f64(0.0, 1.0),
                    |chunk| scalar_fill_16(chunk, mean, std),
                );
                CpuStorage::F64(data)
            }
            DType::Float16 => CpuStorage::F16(self.normal_16bit(n, mean, std)),
            DType::BFloat16 => CpuStorage::BF16(self.normal_16bit(n, mean, std)),
            _ => return None,
        })
    }

    /// float16 and bfloat16: PyTorch 2.15 works in whole blocks of 16 float32 values. It draws
    /// uniforms for `n` rounded up to 16, transforms every block, and stores the last block so that
    /// it ends at the tensor's end, over the tail of the block before (measured against torch
    /// 2.15: the draws consumed and every value agree).
    fn normal_16bit<T: Element>(&mut self, n: usize, mean: f64, std: f64) -> Vec<T> {
        let padded = n.next_multiple_of(16);
        let mut data: Vec<f32> = (0..padded)
            .map(|_| self.uniform_f32(24, 0.0, 1.0))
            .collect();
        for block in data.chunks_exact_mut(16) {
            avx2::normal_fill_16(block, mean as f32, std as f32);
        }
        let last_block = data.split_off(padded - 16);
        data.truncate(n - 16);
        data.extend(last_block);
        data.into_iter()
            .map(|v| T::from_scalar(Scalar::Float(f64::from(v))))
            .collect()
    }

    /// `normal_fill`: Box–Muller over blocks of 16; a ragged end redraws its last 16 values.
    fn box_muller_fill<T>(
        &mut self,
        data: &mut [T],
        mut redraw: impl FnMut(&mut Self) -> T,
        fill_16: impl Fn(&mut [T]),
    ) {
        let n = data.len();
        for start in (0..=n - 16).step_by(16) {
            fill_16(&mut data[start..start + 16]);
        }
        if !n.is_multiple_of(16) {
            let tail = &mut data[n - 16..];
            for value in tail.iter_mut() {
                *value = redraw(self);
            }
            fill_16(tail);
        }
    }

    /// `bernoulli_(p)`: one `uniform_real_distribution<double>` draw per element, `1` when it falls
    /// below `p` (PyTorch's default CPU kernel; its MKL stream, used only on Intel CPUs, differs).
    pub fn bernoulli(&mut self, dtype: DType, n: usize, p: f64) -> CpuStorage {
        let values: Vec<Scalar> = (0..n)
            .map(|_| Scalar::Bool(self.uniform_f64(0.0, 1.0) < p))
            .collect();
        CpuStorage::from_scalars(dtype, &values)
    }

    /// `torch.randint(low, high)`: `(bits % range) + low`, with 64 random bits for ranges of
    /// 2^32 or more.
    pub fn randint(&mut self, dtype: DType, n: usize, low: i64, high: i64) -> CpuStorage {
        let range = high.wrapping_sub(low) as u64;
        let wide = range >= 1 << 32
            && matches!(
                dtype,
                DType::Int64 | DType::Float64 | DType::Float32 | DType::BFloat16
            );
        let values: Vec<Scalar> = (0..n)
            .map(|_| {
                let bits = if wide {
                    self.random64()
                } else {
                    u64::from(self.random())
                };
                Scalar::Int(((bits % range) as i64).wrapping_add(low))
            })
            .collect();
        CpuStorage::from_scalars(dtype, &values)
    }

    /// `torch.randperm(n)`: a Fisher–Yates shuffle drawing 32 random bits per swap.
    pub fn randperm(&mut self, n: usize) -> Vec<i64> {
        let mut values: Vec<i64> = (0..n as i64).collect();
        for i in 0..n.saturating_sub(1) {
            let z = (u64::from(self.random()) % (n - i) as u64) as usize;
            values.swap(i, z + i);
        }
        values
    }
}

/// `normal_fill_16` for float64.
fn scalar_fill_16(data: &mut [f64], mean: f64, std: f64) {
    for j in 0..8 {
        let u1 = 1.0 - data[j];
        let u2 = data[j + 8];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u2;
        data[j] = radius * theta.cos() * std + mean;
        data[j + 8] = radius * theta.sin() * std + mean;
    }
}

/// avx_mathfun.h's `log256_ps` and `sincos256_ps`, lane by lane, as PyTorch's AVX2
/// `normal_fill_16_AVX2` uses them.
mod avx2 {
    // avx_mathfun.h's constants, written as there (f32 rounds them as the C compiler does).
    #![allow(clippy::excessive_precision)]
    const SQRTHF: f32 = std::f32::consts::FRAC_1_SQRT_2;
    const LOG_P: [f32; 9] = [
        7.0376836292E-2,
        -1.1514610310E-1,
        1.1676998740E-1,
        -1.2420140846E-1,
        1.4249322787E-1,
        -1.6668057665E-1,
        2.0000714765E-1,
        -2.4999993993E-1,
        3.3333331174E-1,
    ];
    const LOG_Q1: f32 = -2.12194440e-4;
    const LOG_Q2: f32 = 0.693359375;
    const FOPI: f32 = 1.27323954473516;
    const DP: [f32; 3] = [
        -0.78515625,
        -2.4187564849853515625e-4,
        -3.77489497744594108e-8,
    ];
    const SINCOF: [f32; 3] = [-1.9515295891E-4, 8.3321608736E-3, -1.6666654611E-1];
    const COSCOF: [f32; 3] = [
        2.443315711809948E-005,
        -1.388731625493765E-003,
        4.166664568298827E-002,
    ];

    pub fn log(x: f32) -> f32 {
        let invalid = x <= 0.0;
        let x = x.max(f32::MIN_POSITIVE);
        let bits = x.to_bits();
        let mut e = ((bits >> 23) as i32 - 0x7f) as f32 + 1.0;
        let mut x = f32::from_bits((bits & !0x7f80_0000) | 0.5f32.to_bits());
        let below = x < SQRTHF;
        let tmp = if below { x } else { 0.0 };
        x -= 1.0;
        if below {
            e -= 1.0;
        }
        x += tmp;
        let z = x * x;
        let mut y = LOG_P[0];
        for p in &LOG_P[1..] {
            y = y.mul_add(x, *p);
        }
        y = y * x * z;
        y = e.mul_add(LOG_Q1, y);
        y = (-z).mul_add(0.5, y);
        x += y;
        x = e.mul_add(LOG_Q2, x);
        if invalid { f32::NAN } else { x }
    }

    pub fn sincos(x: f32) -> (f32, f32) {
        let sign_sin = x.is_sign_negative();
        let x = x.abs();
        let mut j = (x * FOPI) as i32;
        j = (j + 1) & !1;
        let y = j as f32;
        let swap_sin = j & 4 != 0;
        let first_poly_for_sin = j & 2 == 0;
        let x = y.mul_add(DP[2], y.mul_add(DP[1], y.mul_add(DP[0], x)));
        let sign_cos = (!(j - 2)) & 4 != 0;
        let z = x * x;
        let mut c = COSCOF[0];
        c = c.mul_add(z, COSCOF[1]);
        c = c.mul_add(z, COSCOF[2]);
        c = c * z * z;
        c = (-z).mul_add(0.5, c);
        c += 1.0;
        let mut s = SINCOF[0];
        s = s.mul_add(z, SINCOF[1]);
        s = s.mul_add(z, SINCOF[2]);
        s = (s * z).mul_add(x, x);
        let (sin, cos) = if first_poly_for_sin { (s, c) } else { (c, s) };
        let sin = if sign_sin ^ swap_sin { -sin } else { sin };
        let cos = if sign_cos { -cos } else { cos };
        (sin, cos)
    }

    pub fn normal_fill_16(data: &mut [f32], mean: f32, std: f32) {
        let two_pi = (2.0 * std::f64::consts::PI) as f32;
        for j in 0..8 {
            let u1 = 1.0 - data[j];
            let u2 = data[j + 8];
            let radius = (-2.0 * log(u1)).sqrt();
            let theta = two_pi * u2;
            let (sin, cos) = sincos(theta);
            data[j] = (radius * cos).mul_add(std, mean);
            data[j + 8] = (radius * sin).mul_add(std, mean);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_twister_matches_the_reference_sequence() {
        // std::mt19937 with its default seed 5489: the 10,000th output is 4123659995.
        let mut mt = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = mt.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }
}
