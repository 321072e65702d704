//! The random ops beyond the factories: the in-place fills `exponential_`, `cauchy_`,
//! `log_normal_`, `geometric_`, `random_` and `bernoulli_` with a tensor of probabilities, and
//! the samplers that read a tensor: `bernoulli`, `multinomial`, `poisson` and `normal` with a
//! tensor mean or std. Each draws as PyTorch's CPU kernel does, element by element in
//! TensorIterator's order, from the generator of the tensor's device (or the op's own
//! `generator=`, see [`crate::Session::using_generator`]). On a GPU device the values are drawn
//! on the host, a stand-in the trace labels (CUDA's Philox kernels give other values anyway).
//! Checks and messages are ATen's (aten/src/ATen/native/DistributionTemplates.h,
//! Distributions.cpp).

use crate::autograd::{self, Backward};
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::{CppDouble, Error, RandomError};
use crate::random::{Generator, MultinomialRowError};
use crate::storage::CpuStorage;
use crate::tensor::Tensor;

impl Tensor {
    /// Fills this tensor in place with what `draw` makes from its device's generator for `n`
    /// elements; `kernel` names the host work in the trace, `node` the gradient node left behind.
    fn fill_storage_(
        &self,
        kernel: &'static str,
        node: &'static str,
        draw: impl FnOnce(&mut Generator, usize) -> CpuStorage,
    ) -> Result<&Tensor, Error> {
        let (session, dtype, device) = (self.session(), self.dtype(), self.device());
        let target = session.resolve(device)?;
        self.fill_drawn_(node, |shape| {
            Tensor::generated(session, shape, dtype, device, kernel, |n| {
                session.with_generator(target, |g| draw(g, n))
            })
        })
    }

    /// [`Tensor::fill_storage_`] with one drawn value per element.
    fn fill_random_(
        &self,
        kernel: &'static str,
        node: &'static str,
        mut draw: impl FnMut(&mut Generator) -> Scalar,
    ) -> Result<&Tensor, Error> {
        let dtype = self.dtype();
        self.fill_storage_(kernel, node, |g, n| {
            let values: Vec<Scalar> = (0..n).map(|_| draw(g)).collect();
            CpuStorage::from_scalars(dtype, &values)
        })
    }

    /// `exponential_(lambd=1)`.
    pub fn exponential_(&self, lambda: f64) -> Result<&Tensor, Error> {
        if lambda.is_nan() || lambda <= 0.0 {
            return Err(RandomError::ExponentialLambda {
                lambda: CppDouble(lambda),
            }
            .into());
        }
        if !self.dtype().is_floating_point() {
            return Err(RandomError::ExponentialDtype {
                dtype: self.dtype(),
            }
            .into());
        }
        self.fill_random_("exponential", "ExponentialBackward0", |g| {
            Scalar::Float(g.exponential(lambda))
        })
    }

    /// `cauchy_(median=0, sigma=1)`.
    pub fn cauchy_(&self, median: f64, sigma: f64) -> Result<&Tensor, Error> {
        if sigma.is_nan() || sigma <= 0.0 {
            return Err(RandomError::CauchySigma {
                sigma: CppDouble(sigma),
            }
            .into());
        }
        if !self.dtype().is_floating_point() {
            return Err(RandomError::CauchyDtype {
                dtype: self.dtype(),
            }
            .into());
        }
        self.fill_random_("cauchy", "CauchyBackward0", |g| {
            Scalar::Float(g.cauchy(median, sigma))
        })
    }

    /// `log_normal_(mean=1, std=2)`.
    pub fn log_normal_(&self, mean: f64, std: f64) -> Result<&Tensor, Error> {
        if std.is_nan() || std <= 0.0 {
            return Err(RandomError::LogNormalStd {
                std: CppDouble(std),
            }
            .into());
        }
        float_kernel(self.dtype(), "log_normal_cpu")?;
        self.fill_random_("log_normal", "LogNormalBackward0", |g| {
            Scalar::Float(g.log_normal(mean, std))
        })
    }

    /// `geometric_(p)`: any dtype.
    pub fn geometric_(&self, p: f64) -> Result<&Tensor, Error> {
        if !(p > 0.0 && p < 1.0) {
            return Err(RandomError::GeometricP { p: CppDouble(p) }.into());
        }
        self.fill_random_("geometric", "GeometricBackward0", |g| {
            Scalar::Float(g.geometric(p))
        })
    }

    /// `random_()`, `random_(to)` (`from` 0) and `random_(from, to)`; `to=None` means up to
    /// the largest value the dtype holds exactly.
    pub fn random_(&self, from: Option<i64>, to: Option<i64>) -> Result<&Tensor, Error> {
        let dtype = self.dtype();
        let (from, range) = match (from, to) {
            (None, None) => {
                return self.fill_random_("random", "RandomBackward0", |g| g.random_bits(dtype));
            }
            (from, Some(to)) => {
                let from = from.unwrap_or(0);
                if from >= to {
                    return Err(RandomError::RandomRange { from, to }.into());
                }
                let (from, to) = match float_digits(dtype) {
                    Some(digits) => {
                        let (from, to) =
                            (cast_from(from, dtype, digits), cast_to(to, dtype, digits));
                        if from >= to {
                            return Err(RandomError::RandomRangeAfterCast { from, to }.into());
                        }
                        (from, to)
                    }
                    None => (from, to),
                };
                check_in_range(self, from, to - 1)?;
                (from, (to as u64).wrapping_sub(from as u64))
            }
            (Some(i64::MIN), None) => {
                return match dtype {
                    DType::Int64 | DType::Float64 | DType::Float32 | DType::BFloat16 => self
                        .fill_random_("random", "RandomBackward1", |g| Scalar::Int(g.full_range())),
                    _ => Err(Error::KernelNotForDtype {
                        kernel: "random_full_64_bits_range_kernel_cpu".into(),
                        dtype,
                    }),
                };
            }
            (Some(from), None) => {
                let (from, to_inc) = match float_digits(dtype) {
                    Some(digits) => {
                        let to_inc = 1i64 << digits;
                        let from = cast_from(from, dtype, digits);
                        if from >= to_inc {
                            return Err(
                                RandomError::RandomRangeAfterCast { from, to: to_inc }.into()
                            );
                        }
                        (from, to_inc)
                    }
                    None => (from, integer_max(dtype)),
                };
                check_in_range(self, from, to_inc)?;
                (
                    from,
                    (to_inc as u64).wrapping_sub(from as u64).wrapping_add(1),
                )
            }
        };
        let high = from.wrapping_add(range as i64);
        self.fill_storage_("random", "RandomBackward1", |g, n| {
            g.randint(dtype, n, from, high)
        })
    }

    /// `bernoulli_(p)` with a tensor of probabilities, broadcast to this tensor: a float draw
    /// per element for float32 probabilities, a double one for float64.
    pub fn bernoulli_tensor_(&self, p: &Tensor) -> Result<&Tensor, Error> {
        let probs = self.probabilities_in_visiting_order(p)?;
        let double = p.dtype() == DType::Float64;
        let (session, dtype, device) = (self.session(), self.dtype(), self.device());
        let target = session.resolve(device)?;
        // ATen checks each probability as it draws: the draws before a bad one are spent.
        let drawn: Result<Vec<Scalar>, Error> = session.with_generator(target, |g| {
            probs
                .iter()
                .map(|&p| match (0.0..=1.0).contains(&p) {
                    true => Ok(Scalar::Bool(g.bernoulli_at(p, double))),
                    false => Err(RandomError::BernoulliTensorP.into()),
                })
                .collect()
        });
        let drawn = drawn?;
        self.fill_drawn_("BernoulliBackward2", |shape| {
            Tensor::generated(session, shape, dtype, device, "bernoulli", |_| {
                CpuStorage::from_scalars(dtype, &drawn)
            })
        })
    }

    /// `p`'s values broadcast to this tensor, in the order its elements are drawn.
    fn probabilities_in_visiting_order(&self, p: &Tensor) -> Result<Vec<f64>, Error> {
        float_kernel(p.dtype(), "bernoulli_tensor_cpu_p_")?;
        let sizes: Vec<i64> = self.shape().iter().map(|&d| d as i64).collect();
        let expanded = p.detach().expand(&sizes)?;
        let visited = match self.memory_order() {
            Some(order) => {
                expanded.permute(&order.iter().map(|&d| d as i64).collect::<Vec<_>>())?
            }
            None => expanded,
        };
        Ok(visited.scalars()?.iter().map(|s| s.as_f64()).collect())
    }

    /// `torch.bernoulli(input)`: 1 with each element's probability (`BernoulliBackward0`, zero).
    pub fn bernoulli(&self) -> Result<Tensor, Error> {
        let out = self.session().no_grad(|| {
            let out = Tensor::empty(self.session(), &sizes(self), self.dtype(), self.device())?;
            out.bernoulli_tensor_(self)?;
            Ok::<_, Error>(out)
        })?;
        Ok(with_zero_gradient(out, "BernoulliBackward0", &[self]))
    }

    /// `torch.bernoulli(input, p)`: `input`'s shape and dtype, probability `p` everywhere.
    pub fn bernoulli_p(&self, p: f64) -> Result<Tensor, Error> {
        let out = Tensor::empty(self.session(), &sizes(self), self.dtype(), self.device())?;
        self.session().no_grad(|| out.bernoulli_(p).map(|_| ()))?;
        Ok(out)
    }

    /// `torch.poisson(rates)` (`PoissonBackward0`, zero).
    pub fn poisson(&self) -> Result<Tensor, Error> {
        float_kernel(self.dtype(), "poisson_cpu")?;
        let rates: Vec<f64> = self.scalars()?.iter().map(|s| s.as_f64()).collect();
        let (session, dtype, device) = (self.session(), self.dtype(), self.device());
        let target = session.resolve(device)?;
        let drawn: Result<Vec<Scalar>, Error> = session.with_generator(target, |g| {
            rates
                .iter()
                .map(|&rate| match rate >= 0.0 {
                    true => Ok(Scalar::Float(g.poisson(rate))),
                    false => Err(RandomError::PoissonRate.into()),
                })
                .collect()
        });
        let drawn = drawn?;
        let out = Tensor::generated(session, self.shape(), dtype, device, "poisson", |_| {
            CpuStorage::from_scalars(dtype, &drawn)
        })?;
        Ok(with_zero_gradient(out, "PoissonBackward0", &[self]))
    }

    /// `torch.multinomial(input, num_samples, replacement=False)`: indices of the last
    /// dimension, int64. Without replacement ATen divides by exponential draws and keeps the
    /// top `num_samples` (the Gumbel trick); with it, it searches each row's cumulative sums.
    pub fn multinomial(&self, num_samples: i64, replacement: bool) -> Result<Tensor, Error> {
        if !(1..=2).contains(&self.dim()) {
            return Err(RandomError::MultinomialDims.into());
        }
        if !self.dtype().is_floating_point() {
            return Err(RandomError::MultinomialDtype {
                dtype: self.dtype(),
            }
            .into());
        }
        if num_samples <= 0 {
            return Err(RandomError::MultinomialNoSamples.into());
        }
        let categories = self.shape()[self.dim() - 1];
        let n = num_samples as usize;
        if !replacement && n > categories {
            return Err(RandomError::MultinomialTooMany.into());
        }
        if categories > 1 << 24 {
            return Err(RandomError::MultinomialCategories.into());
        }
        let rows = if self.dim() == 2 { self.shape()[0] } else { 1 };
        let shape: Vec<usize> = match self.dim() {
            1 => vec![n],
            _ => vec![rows, n],
        };
        let session = self.session();
        if rows == 0 {
            return Tensor::empty(session, &[0, num_samples], DType::Int64, self.device());
        }
        let x = self.detach();
        // ATen checks every row before drawing, with or without replacement.
        session.no_grad(|| -> Result<(), Error> {
            let valid =
                x.max()?.item()?.as_f64() < f64::INFINITY && x.min()?.item()?.as_f64() >= 0.0;
            if !valid {
                return Err(RandomError::MultinomialInvalid.into());
            }
            if x.sum(&[-1], false)?
                .scalars()?
                .iter()
                .any(|s| s.as_f64() == 0.0)
            {
                return Err(RandomError::MultinomialSum.into());
            }
            Ok(())
        })?;
        if !replacement {
            return session.no_grad(|| {
                let q = Tensor::empty(session, &sizes(&x), x.dtype(), x.device())?;
                q.exponential_(1.0)?;
                let q = x.div(&q)?;
                if n == 1 {
                    q.argmax(Some(-1), true)
                } else {
                    Ok(q.topk(num_samples, -1, true, true)?.1)
                }
            });
        }
        let values: Vec<f64> = x.scalars()?.iter().map(|s| s.as_f64()).collect();
        let double = x.dtype() == DType::Float64;
        let target = session.resolve(x.device())?;
        let drawn: Result<Vec<Scalar>, Error> = session.with_generator(target, |g| {
            let mut drawn = Vec::with_capacity(rows * n);
            for row in values.chunks(categories.max(1)) {
                let samples = g.multinomial_row(row, double, n).map_err(|e| match e {
                    MultinomialRowError::Negative => RandomError::MultinomialNegative,
                    MultinomialRowError::NotFinite => RandomError::MultinomialNotFinite,
                    MultinomialRowError::SumNotPositive => RandomError::MultinomialSum,
                })?;
                drawn.extend(samples.into_iter().map(Scalar::Int));
            }
            Ok(drawn)
        });
        let drawn = drawn?;
        Tensor::generated(
            session,
            &shape,
            DType::Int64,
            x.device(),
            "multinomial",
            |_| CpuStorage::from_scalars(DType::Int64, &drawn),
        )
    }

    /// `torch.normal(mean, std, size)` with two numbers: `std` checked as ATen checks it.
    pub fn normal_checked(
        session: &crate::Session,
        shape: &[usize],
        dtype: DType,
        device: crate::Device,
        mean: f64,
        std: f64,
    ) -> Result<Tensor, Error> {
        if std < 0.0 {
            return Err(RandomError::NormalStd {
                std: CppDouble(std),
            }
            .into());
        }
        Tensor::normal(session, shape, dtype, device, mean, std)
    }

    /// `torch.normal(mean, std)` with a tensor for the mean, the std or both: normal values of
    /// the broadcast shape scaled and shifted as ATen does it (`normal_(0, std)` then `add_`
    /// for a number std; `normal_(0, 1)`, `mul_(std)`, `add_(mean)` otherwise), gradients zero
    /// (`NormalBackward1`/`2`/`3`). The mean's dtype and device, or the std's for a number mean.
    pub fn normal_with(moments: Moments<'_>) -> Result<Tensor, Error> {
        let (like, std_tensor) = match moments {
            Moments::TensorNumber(m, s) => {
                if s < 0.0 {
                    return Err(RandomError::NormalStd { std: CppDouble(s) }.into());
                }
                (m, None)
            }
            Moments::NumberTensor(_, s) => (s, Some(s)),
            Moments::TensorTensor(m, s) => (m, Some(s)),
        };
        if let Some(s) = std_tensor.filter(|s| s.numel() > 0)
            && s.detach().min()?.item()?.as_f64() < 0.0
        {
            return Err(RandomError::NormalTensorStd.into());
        }
        let session = like.session();
        let (dtype, device) = (like.dtype(), like.device());
        let shape = match moments {
            Moments::TensorTensor(m, s) => crate::layout::broadcast_shapes(m.shape(), s.shape())?,
            _ => like.shape().to_vec(),
        };
        let out = session.no_grad(|| -> Result<Tensor, Error> {
            match moments {
                Moments::TensorNumber(m, s) => {
                    Tensor::normal(session, &shape, dtype, device, 0.0, s)?.add(&m.detach())
                }
                Moments::NumberTensor(m, s) => {
                    Tensor::normal(session, &shape, dtype, device, 0.0, 1.0)?
                        .mul(&s.detach())?
                        .add(Scalar::Float(m))
                }
                Moments::TensorTensor(m, s) => {
                    Tensor::normal(session, &shape, dtype, device, 0.0, 1.0)?
                        .mul(&s.detach())?
                        .add(&m.detach())
                }
            }
        })?;
        Ok(match moments {
            Moments::TensorNumber(m, _) => with_zero_gradient(out, "NormalBackward1", &[m]),
            Moments::NumberTensor(_, s) => with_zero_gradient(out, "NormalBackward2", &[s]),
            Moments::TensorTensor(m, s) => with_zero_gradient(out, "NormalBackward3", &[m, s]),
        })
    }
}

/// The mean and std of `torch.normal` when one of them is a tensor.
#[derive(Clone, Copy)]
pub enum Moments<'a> {
    TensorNumber(&'a Tensor, f64),
    NumberTensor(f64, &'a Tensor),
    TensorTensor(&'a Tensor, &'a Tensor),
}

fn sizes(t: &Tensor) -> Vec<i64> {
    t.shape().iter().map(|&d| d as i64).collect()
}

/// `out` as the result of a sampling node whose inputs get zero gradients.
fn with_zero_gradient(out: Tensor, node: &'static str, inputs: &[&Tensor]) -> Tensor {
    let shapes: Vec<(Vec<usize>, DType)> = inputs
        .iter()
        .map(|t| (t.shape().to_vec(), t.dtype()))
        .collect();
    let inputs: Vec<Option<&Tensor>> = inputs.iter().map(|t| Some(*t)).collect();
    let meta = autograd::record_edges(&inputs, || {
        Backward::new(node, move |grad| {
            shapes
                .iter()
                .map(|(shape, dtype)| {
                    Tensor::full(grad.session(), shape, Scalar::Int(0), *dtype, grad.device())
                        .map(Some)
                })
                .collect()
        })
    });
    out.with_autograd(meta)
}

/// ATen's dispatch error for a kernel that takes floating dtypes only.
fn float_kernel(dtype: DType, kernel: &str) -> Result<(), Error> {
    match dtype.is_floating_point() {
        true => Ok(()),
        false => Err(Error::KernelNotForDtype {
            kernel: kernel.into(),
            dtype,
        }),
    }
}

/// The significand bits of a floating dtype (`std::numeric_limits<T>::digits`).
fn float_digits(dtype: DType) -> Option<u32> {
    match dtype {
        DType::Float16 => Some(11),
        DType::BFloat16 => Some(8),
        DType::Float32 => Some(24),
        DType::Float64 => Some(53),
        _ => None,
    }
}

/// `value` cast to the dtype and back to int64 (round to nearest even, as C++ casts do).
fn round_trip(value: i64, dtype: DType) -> i64 {
    let v = value as f64;
    match dtype {
        DType::Float32 => v as f32 as i64,
        DType::Float16 => half::f16::from_f64(v).to_f64() as i64,
        DType::BFloat16 => half::bf16::from_f64(v).to_f64() as i64,
        _ => v as i64,
    }
}

fn integer_max(dtype: DType) -> i64 {
    match dtype {
        DType::Bool => 1,
        d => d.iinfo().map_or(i64::MAX, |info| info.max),
    }
}

fn integer_min(dtype: DType) -> i64 {
    match dtype {
        DType::Bool => 0,
        d => d.iinfo().map_or(i64::MIN, |info| info.min),
    }
}

/// ATen's `update_from`: a `from` the dtype rounds down is moved up to the next value it holds.
fn cast_from(from: i64, dtype: DType, digits: u32) -> i64 {
    let from_plus_1 = round_trip(from.saturating_add(1), dtype);
    if from_plus_1 >= from {
        return from;
    }
    let n = 63 - from.saturating_add(1).unsigned_abs().leading_zeros() as i32;
    from_plus_1.saturating_add(1i64 << (n - digits as i32 + 1).clamp(0, 62))
}

/// ATen's `update_to`: a `to` the dtype rounds up is moved down to the value below it.
fn cast_to(to: i64, dtype: DType, digits: u32) -> i64 {
    let to_minus_1 = round_trip(to.saturating_sub(1), dtype);
    if to_minus_1 < to {
        return to;
    }
    let n = 63 - to.saturating_sub(1).unsigned_abs().leading_zeros() as i32;
    to_minus_1.saturating_sub(1i64 << (n - digits as i32 + 1).clamp(0, 62))
}

/// ATen's `check_from_to_in_range`: errors outside the dtype, and for floats a warning past
/// the integers they hold exactly.
fn check_in_range(t: &Tensor, from: i64, to_inc: i64) -> Result<(), Error> {
    let dtype = t.dtype();
    let (max, min) = match dtype.is_floating_point() {
        true => dtype.finite_range(),
        false => (integer_max(dtype) as f64, integer_min(dtype) as f64),
    };
    for (value, name) in [(from, "from"), (to_inc, "to - 1")] {
        if (value as f64) < min || (value as f64) > max {
            return Err(RandomError::RandomBound { name, dtype }.into());
        }
    }
    if let Some(digits) = float_digits(dtype) {
        let limit = 1i64 << digits.min(62);
        for (value, name) in [(from, "from"), (to_inc, "to - 1")] {
            if value < -limit || value > limit {
                t.session().warn(&format!(
                    "{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations {} can support discrete uniform distribution only within this range. This warning will become an error in version 1.7 release, please fix the code in advance",
                    dtype.cpp_name()
                ));
            }
        }
    }
    Ok(())
}
