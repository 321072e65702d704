//! The distributions of PyTorch's CPU kernels beyond uniform and normal, one value at a time as
//! `cpu_serial_kernel` draws them (aten/src/ATen/core/TransformationHelper.h and
//! DistributionsHelper.h, aten/src/ATen/native/cpu/DistributionTemplates.h,
//! MultinomialKernel.cpp, and `sample_poisson` in aten/src/ATen/native/Distributions.cpp).

use super::Generator;
use crate::dtype::DType;
use crate::element::Scalar;

/// Why a multinomial row cannot be drawn from, in ATen's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultinomialRowError {
    Negative,
    NotFinite,
    SumNotPositive,
}

impl Generator {
    /// `exponential_(lambd)`: `-1/λ · log1p(-u)`, `u` a double uniform.
    pub fn exponential(&mut self, lambda: f64) -> f64 {
        -1.0 / lambda * (-self.uniform_f64(0.0, 1.0)).ln_1p()
    }

    /// `cauchy_(median, sigma)`: `median + σ · tan(π (u − ½))`.
    pub fn cauchy(&mut self, median: f64, sigma: f64) -> f64 {
        median + sigma * (std::f64::consts::PI * (self.uniform_f64(0.0, 1.0) - 0.5)).tan()
    }

    /// `log_normal_(mean, std)`: `exp` of a double normal (sharing its cached partner).
    pub fn log_normal(&mut self, mean: f64, std: f64) -> f64 {
        self.normal_f64(mean, std).exp()
    }

    /// `geometric_(p)`: `ceil(log u / log1p(−p))`.
    pub fn geometric(&mut self, p: f64) -> f64 {
        (self.uniform_f64(0.0, 1.0).ln() / (-p).ln_1p()).ceil()
    }

    /// `random_()`: raw bits reduced to the dtype's range of exactly representable
    /// non-negative integers (64 bits for int64 and float64, 32 for the others).
    pub fn random_bits(&mut self, dtype: DType) -> Scalar {
        let wide = matches!(dtype, DType::Int64 | DType::Float64);
        let bits = if wide {
            self.random64()
        } else {
            u64::from(self.random())
        };
        let modulus: u64 = match dtype {
            DType::Bool => 2,
            DType::UInt8 => 1 << 8,
            DType::Int8 => 1 << 7,
            DType::Int16 => 1 << 15,
            DType::Int32 => 1 << 31,
            DType::Int64 => 1 << 63,
            DType::Float16 => (1 << 11) + 1,
            DType::BFloat16 => (1 << 8) + 1,
            DType::Float32 => (1 << 24) + 1,
            DType::Float64 => (1 << 53) + 1,
        };
        match dtype {
            DType::Bool => Scalar::Bool(bits & 1 == 1),
            _ => Scalar::Int((bits % modulus) as i64),
        }
    }

    /// `random_(-2**63, None)`: all 64 bits, as int64.
    pub fn full_range(&mut self) -> i64 {
        self.random64() as i64
    }

    /// One element of `bernoulli_(p_tensor)`: a float uniform against a float32 (or reduced)
    /// probability, a double one against a float64 probability.
    pub fn bernoulli_at(&mut self, p: f64, double: bool) -> bool {
        if double {
            self.uniform_f64(0.0, 1.0) < p
        } else {
            self.uniform_f32(24, 0.0, 1.0) < p as f32
        }
    }

    /// `n_sample` draws with replacement from one row of unnormalised probabilities: a
    /// cumulative distribution (in float32 unless the input is float64, as ATen keeps it),
    /// normalised, searched with one double uniform per draw.
    pub fn multinomial_row(
        &mut self,
        probs: &[f64],
        double: bool,
        n_sample: usize,
    ) -> Result<Vec<i64>, MultinomialRowError> {
        // Sums and quotients of float32 values rounded once to float32 are float32 arithmetic.
        let round = |x: f64| if double { x } else { f64::from(x as f32) };
        let mut cumulative = Vec::with_capacity(probs.len());
        let mut sum = 0.0;
        for &p in probs {
            if p < 0.0 {
                return Err(MultinomialRowError::Negative);
            }
            if !p.is_finite() {
                return Err(MultinomialRowError::NotFinite);
            }
            sum = round(sum + p);
            cumulative.push(sum);
        }
        if sum <= 0.0 {
            return Err(MultinomialRowError::SumNotPositive);
        }
        for c in &mut cumulative {
            *c = round(*c / sum);
        }
        if let Some(last) = cumulative.last_mut() {
            *last = 1.0;
        }
        Ok((0..n_sample)
            .map(|_| {
                let u = self.uniform_f64(0.0, 1.0);
                cumulative.partition_point(|&c| c < u) as i64
            })
            .collect())
    }

    /// `torch.poisson`: Hörmann's transformed rejection for rates of 10 or more, a product of
    /// uniforms below (NumPy's `random_poisson`, as ATen adapts it). `lgamma` is fdlibm's, as
    /// glibc's is, so the rejection test decides as PyTorch's does.
    pub fn poisson(&mut self, lambda: f64) -> f64 {
        if lambda >= 10.0 {
            let slam = lambda.sqrt();
            let loglam = lambda.ln();
            let b = 0.931 + 2.53 * slam;
            let a = -0.059 + 0.02483 * b;
            let invalpha = 1.1239 + 1.1328 / (b - 3.4);
            let vr = 0.9277 - 3.6224 / (b - 2.0);
            loop {
                let u = self.uniform_f64(0.0, 1.0) - 0.5;
                let v = self.uniform_f64(0.0, 1.0);
                let us = 0.5 - u.abs();
                let k = ((2.0 * a / us + b) * u + lambda + 0.43).floor();
                if us >= 0.07 && v <= vr {
                    return k;
                }
                if k < 0.0 || (us < 0.013 && v > us) {
                    continue;
                }
                if v.ln() + invalpha.ln() - (a / (us * us) + b).ln()
                    <= -lambda + k * loglam - libm::lgamma(k + 1.0)
                {
                    return k;
                }
            }
        }
        if lambda == 0.0 {
            return 0.0;
        }
        let enlam = (-lambda).exp();
        let mut x = 0.0;
        let mut prod = 1.0;
        loop {
            prod *= self.uniform_f64(0.0, 1.0);
            if prod > enlam {
                x += 1.0;
            } else {
                return x;
            }
        }
    }
}
