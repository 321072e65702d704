//! The errors of random sampling, in ATen's words (aten/src/ATen/native/DistributionTemplates.h,
//! Distributions.cpp, aten/src/ATen/core/DistributionsHelper.h, ATen/Utils.h's
//! `check_generator`, CPUGeneratorImpl.cpp's `set_state`).

use thiserror::Error;

use crate::device::DeviceType;
use crate::dtype::DType;
pub use crate::random::StateError;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RandomError {
    /// A `torch.Generator` (always on the CPU in the lab) asked to draw for another device.
    #[error("Expected a '{}' device type for generator but found 'cpu'", expected.name())]
    GeneratorDevice { expected: DeviceType },
    #[error("normal expects std >= 0.0, but found std {}", std)]
    NormalStd { std: CppDouble },
    #[error("normal expects all elements of std >= 0.0")]
    NormalTensorStd,
    #[error(
        "uniform_ expects to return a [from, to) range, but found from={} > to={}",
        from,
        to
    )]
    UniformRange { from: CppDouble, to: CppDouble },
    #[error("exponential_ expects lambda > 0.0, but found lambda={}", lambda)]
    ExponentialLambda { lambda: CppDouble },
    #[error("cauchy_ expects sigma > 0.0, but found sigma={}", sigma)]
    CauchySigma { sigma: CppDouble },
    #[error("log_normal_ expects std > 0.0, but found std={}", std)]
    LogNormalStd { std: CppDouble },
    #[error(
        "Exponential distribution is a continuous probability distribution. dtype must be a floating point but you specified {}",
        dtype.scalar_type_name()
    )]
    ExponentialDtype { dtype: DType },
    #[error(
        "Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you specified {}",
        dtype.cpp_name()
    )]
    CauchyDtype { dtype: DType },
    #[error("geometric_ expects p to be in (0, 1), but got p={}", p)]
    GeometricP { p: CppDouble },
    #[error("bernoulli_ expects p to be in [0, 1], but got p={}", p)]
    BernoulliP { p: CppDouble },
    #[error(
        "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)"
    )]
    BernoulliTensorP,
    #[error("random_ expects 'from' to be less than 'to', but got from={from} >= to={to}")]
    RandomRange { from: i64, to: i64 },
    #[error(
        "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from={from} >= to={to}"
    )]
    RandomRangeAfterCast { from: i64, to: i64 },
    #[error("{name} is out of bounds for {}", dtype.cpp_name())]
    RandomBound { name: &'static str, dtype: DType },
    #[error("prob_dist must be 1 or 2 dim")]
    MultinomialDims,
    #[error("multinomial only supports floating-point dtypes for input, got: {}", dtype.scalar_type_name())]
    MultinomialDtype { dtype: DType },
    #[error("cannot sample n_sample <= 0 samples")]
    MultinomialNoSamples,
    #[error("cannot sample n_sample > prob_dist.size(-1) samples without replacement")]
    MultinomialTooMany,
    #[error("number of categories cannot exceed 2^24")]
    MultinomialCategories,
    #[error("probability tensor contains either `inf`, `nan` or element < 0")]
    MultinomialInvalid,
    #[error("invalid multinomial distribution (encountering probability entry < 0)")]
    MultinomialNegative,
    #[error("invalid multinomial distribution (encountering probability entry = infinity or NaN)")]
    MultinomialNotFinite,
    #[error("invalid multinomial distribution (sum of probabilities <= 0)")]
    MultinomialSum,
    #[error("invalid Poisson rate, expected rate to be non-negative")]
    PoissonRate,
    #[error("{0}")]
    State(StateError),
}

/// A double as C++'s `operator<<` prints it (`%g`: six significant digits); equal when the
/// bits are.
#[derive(Debug, Clone, Copy)]
pub struct CppDouble(pub f64);

impl PartialEq for CppDouble {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for CppDouble {}

impl std::fmt::Display for CppDouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        if v == 0.0 || !v.is_finite() {
            return match v {
                v if v.is_nan() => {
                    write!(f, "{}", if v.is_sign_negative() { "-nan" } else { "nan" })
                }
                v if v.is_infinite() => write!(f, "{}", if v > 0.0 { "inf" } else { "-inf" }),
                _ => write!(f, "{}", if v.is_sign_negative() { "-0" } else { "0" }),
            };
        }
        let scientific = format!("{v:.5e}");
        let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
        let exponent: i32 = exponent.parse().unwrap_or(0);
        let trim = |s: &str| {
            if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s.to_string()
            }
        };
        if !(-4..6).contains(&exponent) {
            let sign = if exponent < 0 { '-' } else { '+' };
            write!(f, "{}e{sign}{:02}", trim(mantissa), exponent.abs())
        } else {
            write!(f, "{}", trim(&format!("{v:.*}", (5 - exponent) as usize)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CppDouble;

    #[test]
    fn doubles_print_as_cpp_streams_print_them() {
        for (v, text) in [
            (-1.0, "-1"),
            (1.5, "1.5"),
            (0.1, "0.1"),
            (1e-7, "1e-07"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (0.000123, "0.000123"),
        ] {
            assert_eq!(CppDouble(v).to_string(), text);
        }
    }
}
