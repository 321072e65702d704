//! Pointwise ops PyTorch computes in one kernel from several inputs — `lerp`, `addcmul`,
//! `addcdiv`, `xlogy`, `clamp` with tensor bounds — and the ones it defines from simpler ones —
//! `nan_to_num`, `logit`, the logical ops, `isclose`, `signbit`, `rad2deg`, `deg2rad` — each
//! with PyTorch's order of rounding and its node.

use crate::autograd::{self, Backward};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::unary::Unary;
use crate::dtype::DType;
use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

use super::elementwise::{Operand, add_scaled_values, binary_values, reduce_grad};

fn op<'a>(
    op: Binary,
    a: impl Into<Operand<'a>>,
    b: impl Into<Operand<'a>>,
) -> Result<Tensor, Error> {
    binary_values(op, a.into(), b.into())
}

/// A gradient summed back to an input's shape and dtype.
fn to_input(grad: &Tensor, input: &Tensor) -> Result<Option<Tensor>, Error> {
    Ok(Some(reduce_grad(grad, input.shape(), input.dtype())?))
}

impl Tensor {
    /// `lerp(end, weight)` for a number `weight`: `self + w·(end - self)` for `|w| < 0.5`, else
    /// `end - (end - self)·(1 - w)`, each one fused multiply-add as PyTorch's vector kernel
    /// (`LerpBackward0`).
    pub fn lerp_scalar(&self, end: &Tensor, weight: f64) -> Result<Tensor, Error> {
        // TensorIterator's device check, over the inputs in order.
        super::common_device(&[self, end])?;
        let diff = op(Binary::Sub, end, self)?;
        let out = match weight.abs() < 0.5 {
            true => add_scaled_values(
                Binary::Add,
                self.into(),
                (&diff).into(),
                Scalar::Float(weight),
            )?,
            false => add_scaled_values(
                Binary::Add,
                end.into(),
                (&diff).into(),
                Scalar::Float(weight - 1.0),
            )?,
        };
        let (start, stop) = (self.detach(), end.detach());
        let meta = autograd::record(&[self, end], || {
            Backward::new("LerpBackward0", move |grad| {
                Ok(vec![
                    to_input(&op(Binary::Mul, grad, Scalar::Float(1.0 - weight))?, &start)?,
                    to_input(&op(Binary::Mul, grad, Scalar::Float(weight))?, &stop)?,
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `lerp(end, weight)` for a tensor `weight` (`LerpBackward1`). The multiply-add is computed
    /// in float64 and rounded once, as the fused one rounds.
    pub fn lerp(&self, end: &Tensor, weight: &Tensor) -> Result<Tensor, Error> {
        super::common_device(&[self, end, weight])?;
        let default = self.session().default_dtype();
        let dtype = crate::dtype::result_type(
            &[
                Operand::Tensor(self).promotion(),
                Operand::Tensor(end).promotion(),
                Operand::Tensor(weight).promotion(),
            ],
            default,
        )
        .unwrap_or(default);
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let wide = |t: &Tensor| t.to_dtype(DType::Float64);
            let (s, e, w) = (wide(self)?, wide(end)?, wide(weight)?);
            let diff = op(Binary::Sub, &e, &s)?;
            let small = op(Binary::Lt, &w.math(Unary::Abs)?, Scalar::Float(0.5))?;
            let coeff = Tensor::where_(&small, &w, &op(Binary::Sub, &w, Scalar::Int(1))?)?;
            let base = Tensor::where_(&small, &s, &e)?;
            op(Binary::Add, &base, &op(Binary::Mul, &coeff, &diff)?)?.to_dtype(dtype)
        })?;
        let (start, stop, w) = (self.detach(), end.detach(), weight.detach());
        let meta = autograd::record(&[self, end, weight], || {
            Backward::new("LerpBackward1", move |grad| {
                let rest = op(Binary::Sub, Scalar::Int(1), &w)?;
                Ok(vec![
                    to_input(&op(Binary::Mul, grad, &rest)?, &start)?,
                    to_input(&op(Binary::Mul, grad, &w)?, &stop)?,
                    to_input(
                        &op(Binary::Mul, grad, &op(Binary::Sub, &stop, &start)?)?,
                        &w,
                    )?,
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `addcmul(t1, t2, value)`: `self + value·t1·t2`, multiplied in that order
    /// (`AddcmulBackward0`).
    pub fn addcmul(&self, t1: &Tensor, t2: &Tensor, value: Scalar) -> Result<Tensor, Error> {
        super::common_device(&[self, t1, t2])?;
        let product = op(
            Binary::Mul,
            &op(Binary::Mul, Operand::Scalar(value), t1)?,
            t2,
        )?;
        let out = op(Binary::Add, self, &product)?;
        let (a, b, c) = (self.detach(), t1.detach(), t2.detach());
        let meta = autograd::record(&[self, t1, t2], || {
            Backward::new("AddcmulBackward0", move |grad| {
                Ok(vec![
                    to_input(grad, &a)?,
                    to_input(&op(Binary::Mul, grad, &op(Binary::Mul, &c, value)?)?, &b)?,
                    to_input(&op(Binary::Mul, grad, &op(Binary::Mul, &b, value)?)?, &c)?,
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `addcdiv(t1, t2, value)`: `self + value·t1 / t2`; integer `t1` and `t2` are refused, as
    /// PyTorch refuses them (`AddcdivBackward0`).
    pub fn addcdiv(&self, t1: &Tensor, t2: &Tensor, value: Scalar) -> Result<Tensor, Error> {
        super::common_device(&[self, t1, t2])?;
        if !t1.dtype().is_floating_point() && !t2.dtype().is_floating_point() {
            return Err(Error::AddcdivIntegers);
        }
        let quotient = op(
            Binary::Div,
            &op(Binary::Mul, Operand::Scalar(value), t1)?,
            t2,
        )?;
        let out = op(Binary::Add, self, &quotient)?;
        let (a, b, c) = (self.detach(), t1.detach(), t2.detach());
        let meta = autograd::record(&[self, t1, t2], || {
            Backward::new("AddcdivBackward0", move |grad| {
                let to_t1 = op(
                    Binary::Mul,
                    grad,
                    &op(Binary::Div, Operand::Scalar(value), &c)?,
                )?;
                let over = op(
                    Binary::Div,
                    &op(Binary::Mul, Operand::Scalar(value), &b)?,
                    &op(Binary::Mul, &c, &c)?,
                )?;
                let to_t2 = op(Binary::Mul, &grad.neg()?, &over)?;
                Ok(vec![
                    to_input(grad, &a)?,
                    to_input(&to_t1, &b)?,
                    to_input(&to_t2, &c)?,
                ])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `xlogy(other)`: `self · log(other)`, 0 where `self` is 0, NaN where `other` is
    /// (`XlogyBackward0`).
    pub fn xlogy(&self, other: &Tensor) -> Result<Tensor, Error> {
        super::common_device(&[self, other])?;
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let default = self.session().default_dtype();
            let dtype = crate::dtype::result_type(
                &[
                    Operand::Tensor(self).promotion(),
                    Operand::Tensor(other).promotion(),
                ],
                default,
            )
            .unwrap_or(default);
            let dtype = if dtype.is_floating_point() {
                dtype
            } else {
                default
            };
            let (x, y) = (self.to_dtype(dtype)?, other.to_dtype(dtype)?);
            let product = op(Binary::Mul, &x, &y.math(Unary::Log)?)?;
            let zero = Tensor::full(
                self.session(),
                &[],
                Scalar::Int(0),
                dtype,
                crate::Device::CPU,
            )?;
            let zeroed = Tensor::where_(&op(Binary::Eq, &x, Scalar::Int(0))?, &zero, &product)?;
            let nan = Tensor::full(
                self.session(),
                &[],
                Scalar::Float(f64::NAN),
                dtype,
                crate::Device::CPU,
            )?;
            Tensor::where_(&op(Binary::Ne, &y, &y)?, &nan, &zeroed)
        })?;
        let (x, y) = (self.detach(), other.detach());
        let meta = autograd::record(&[self, other], || {
            Backward::new("XlogyBackward0", move |grad| {
                let nonzero = op(Binary::Ne, &x, Scalar::Int(0))?.to_dtype(grad.dtype())?;
                let to_x = op(Binary::Mul, grad, &nonzero.xlogy(&y)?)?;
                let to_y = op(Binary::Div, &op(Binary::Mul, grad, &x)?, &y)?;
                Ok(vec![to_input(&to_x, &x)?, to_input(&to_y, &y)?])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `nan_to_num(nan=0.0, posinf=None, neginf=None)`: infinities become the dtype's largest
    /// and lowest finite values unless given (`NanToNumBackward0`: the gradient where the input
    /// was finite). Integers are returned as they are.
    pub fn nan_to_num(
        &self,
        nan: Option<f64>,
        posinf: Option<f64>,
        neginf: Option<f64>,
    ) -> Result<Tensor, Error> {
        let dtype = self.dtype();
        if !dtype.is_floating_point() {
            return self.clone_tensor();
        }
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let value = |v: f64| {
                Tensor::full(
                    self.session(),
                    &[],
                    Scalar::Float(v),
                    dtype,
                    crate::Device::CPU,
                )
            };
            let (largest, lowest) = dtype.finite_range();
            let replaced = Tensor::where_(
                &op(Binary::Ne, self, self)?,
                &value(nan.unwrap_or(0.0))?,
                self,
            )?;
            let replaced = Tensor::where_(
                &op(Binary::Eq, self, Scalar::Float(f64::INFINITY))?,
                &value(posinf.unwrap_or(largest))?,
                &replaced,
            )?;
            Tensor::where_(
                &op(Binary::Eq, self, Scalar::Float(f64::NEG_INFINITY))?,
                &value(neginf.unwrap_or(lowest))?,
                &replaced,
            )
        })?;
        let x = self.detach();
        let meta = autograd::record(&[self], || {
            Backward::new("NanToNumBackward0", move |grad| {
                let finite = op(Binary::Eq, &op(Binary::Sub, &x, &x)?, Scalar::Int(0))?;
                Ok(vec![Some(op(
                    Binary::Mul,
                    grad,
                    &finite.to_dtype(grad.dtype())?,
                )?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `logit(eps=None)`: `log(x / (1 - x))`, `x` first clamped to `[eps, 1 - eps]` when `eps` is
    /// given; integers count as the default dtype (`LogitBackward0`: `grad / (x (1 - x))`, NaN outside
    /// `[0, 1]`, or 0 outside the clamp).
    pub fn logit(&self, eps: Option<f64>) -> Result<Tensor, Error> {
        let x = match self.dtype().is_floating_point() {
            true => self.detach(),
            false => self.to_dtype(self.session().default_dtype())?,
        };
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let z = match eps {
                Some(e) => x.clamp(Some(Scalar::Float(e)), Some(Scalar::Float(1.0 - e)))?,
                None => x.clone(),
            };
            op(Binary::Div, &z, &op(Binary::Sub, Scalar::Int(1), &z)?)?.math(Unary::Log)
        })?;
        let meta = autograd::record(&[self], || {
            Backward::new("LogitBackward0", move |grad| {
                let slope = op(
                    Binary::Div,
                    grad,
                    &op(Binary::Mul, &x, &op(Binary::Sub, Scalar::Int(1), &x)?)?,
                )?;
                let (lo, hi, outside) = match eps {
                    Some(e) => (e, 1.0 - e, 0.0),
                    None => (0.0, 1.0, f64::NAN),
                };
                let beyond = op(
                    Binary::BitOr,
                    &op(Binary::Lt, &x, Scalar::Float(lo))?,
                    &op(Binary::Gt, &x, Scalar::Float(hi))?,
                )?;
                let fill = Tensor::full(
                    x.session(),
                    &[],
                    Scalar::Float(outside),
                    slope.dtype(),
                    crate::Device::CPU,
                )?;
                Ok(vec![Some(Tensor::where_(&beyond, &fill, &slope)?)])
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `logical_not()`: bool, true where the element is zero.
    pub fn logical_not(&self) -> Result<Tensor, Error> {
        self.session()
            .no_grad(|| op(Binary::Eq, self, Scalar::Int(0)))
    }

    /// `logical_and`/`logical_or`/`logical_xor(other)`: bool, of each side's truth.
    pub fn logical(&self, combine: Binary, other: &Tensor) -> Result<Tensor, Error> {
        self.session().no_grad(|| {
            let truth = |t: &Tensor| op(Binary::Ne, t, Scalar::Int(0));
            op(combine, &truth(self)?, &truth(other)?)
        })
    }

    /// `isclose(other, rtol, atol, equal_nan)`: `|self - other| ≤ atol + rtol·|other|`, equal
    /// values (infinities too) always close, NaNs only with `equal_nan`.
    pub fn isclose(
        &self,
        other: &Tensor,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<Tensor, Error> {
        self.session().no_grad(|| {
            let equal = op(Binary::Eq, self, other)?;
            let gap = op(Binary::Sub, self, other)?.math(Unary::Abs)?;
            let allowed = op(
                Binary::Add,
                &op(Binary::Mul, &other.math(Unary::Abs)?, Scalar::Float(rtol))?,
                Scalar::Float(atol),
            )?;
            // A finite gap within the allowance (an infinite gap never is).
            let finite = op(Binary::Ne, &gap, Scalar::Float(f64::INFINITY))?;
            let within = op(Binary::BitAnd, &op(Binary::Le, &gap, &allowed)?, &finite)?;
            let close = op(Binary::BitOr, &equal, &within)?;
            match equal_nan {
                true => {
                    let both = op(
                        Binary::BitAnd,
                        &op(Binary::Ne, self, self)?,
                        &op(Binary::Ne, other, other)?,
                    )?;
                    op(Binary::BitOr, &close, &both)
                }
                false => Ok(close),
            }
        })
    }

    /// `signbit()`: true where the sign bit is set (`-0.0` and a negative NaN included): where
    /// `copysign(1, x)` is negative.
    pub fn signbit(&self) -> Result<Tensor, Error> {
        self.session()
            .no_grad(|| match self.dtype().is_floating_point() {
                true => op(
                    Binary::Lt,
                    &op(Binary::Copysign, Scalar::Int(1), self)?,
                    Scalar::Int(0),
                ),
                false => op(Binary::Lt, self, Scalar::Int(0)),
            })
    }

    /// `clamp(min, max)` with tensor bounds (either may be absent), broadcast together and
    /// promoted as one op: `ClampBackward0`, or `ClampMinBackward1`/`ClampMaxBackward1` for
    /// `clamp_min`/`clamp_max` (`node`). PyTorch 2.15 hands each element's gradient to the value
    /// the result came from: the bound it was clamped to, `max` wherever `min > max`, half to
    /// each of a value and a bound it equals (all of it to the value when `min == max` too).
    pub fn clamp_tensor(
        &self,
        node: &'static str,
        min: Option<&Tensor>,
        max: Option<&Tensor>,
    ) -> Result<Tensor, Error> {
        let mut inputs = vec![self];
        inputs.extend(min.iter().chain(&max).copied());
        super::common_device(&inputs)?;
        let mut promoted = vec![Operand::Tensor(self).promotion()];
        promoted.extend(
            min.iter()
                .chain(&max)
                .map(|b| Operand::Tensor(b).promotion()),
        );
        let dtype = crate::dtype::result_type(&promoted, self.session().default_dtype())
            .unwrap_or(self.dtype());
        let out = self.session().no_grad(|| -> Result<Tensor, Error> {
            let mut out = self.to_dtype_if_needed(dtype)?;
            if let Some(low) = min {
                out = op(Binary::Maximum, &out, low)?;
            }
            if let Some(high) = max {
                out = op(Binary::Minimum, &out, high)?;
            }
            match min.is_none() && max.is_none() {
                true => Err(Error::ClampWithoutBounds),
                false => Ok(out),
            }
        })?;
        // `clamp_min`'s and `clamp_max`'s nodes have an edge for their one bound; `clamp`'s
        // has both, absent or not.
        let edges = match node {
            "ClampMinBackward1" => vec![Some(self), min],
            "ClampMaxBackward1" => vec![Some(self), max],
            _ => vec![Some(self), min, max],
        };
        let (x, low, high) = (
            self.detach(),
            min.map(Tensor::detach),
            max.map(Tensor::detach),
        );
        let meta = autograd::record_edges(&edges, || {
            Backward::new(node, move |grad| {
                let (to_low, to_high) = clamp_shares(&x, low.as_ref(), high.as_ref())?;
                let mut to_x = grad.clone();
                let mut to_bound = |bound: &Option<Tensor>, share: Option<Tensor>| {
                    let (Some(bound), Some(share)) = (bound, share) else {
                        return Ok(None);
                    };
                    let part = op(Binary::Mul, grad, &share.to_dtype(grad.dtype())?)?;
                    to_x = op(Binary::Sub, &to_x, &part)?;
                    to_input(&part, bound)
                };
                let (to_low, to_high) = (to_bound(&low, to_low)?, to_bound(&high, to_high)?);
                let bounds = match node {
                    "ClampMinBackward1" => vec![to_low],
                    "ClampMaxBackward1" => vec![to_high],
                    _ => vec![to_low, to_high],
                };
                Ok([vec![to_input(&to_x, &x)?], bounds].concat())
            })
        });
        Ok(out.with_autograd(meta))
    }

    /// `rad2deg()` and `deg2rad()` (`degrees`): the values times `180/π` or `π/180`, integers
    /// as the default dtype (`Rad2DegBackward0`, `Deg2RadBackward0`).
    pub fn angle_units(&self, degrees: bool) -> Result<Tensor, Error> {
        let (factor, node) = match degrees {
            true => (180.0 / std::f64::consts::PI, "Rad2DegBackward0"),
            false => (std::f64::consts::PI / 180.0, "Deg2RadBackward0"),
        };
        let x = match self.dtype().is_floating_point() {
            true => self.detach(),
            false => self.to_dtype(self.session().default_dtype())?,
        };
        let out = op(Binary::Mul, &x, Scalar::Float(factor))?;
        let meta = autograd::record(&[self], || {
            Backward::new(node, move |grad| {
                Ok(vec![Some(op(Binary::Mul, grad, Scalar::Float(factor))?)])
            })
        });
        Ok(out.with_autograd(meta))
    }
}

/// The share of each element's gradient that goes to `min` and to `max` in a clamp with tensor
/// bounds, as 0, 0.5 or 1 (float32; the rest goes to the value).
fn clamp_shares(
    x: &Tensor,
    min: Option<&Tensor>,
    max: Option<&Tensor>,
) -> Result<(Option<Tensor>, Option<Tensor>), Error> {
    let float = |t: Tensor| t.to_dtype(DType::Float32);
    let half =
        |t: Tensor| -> Result<Tensor, Error> { op(Binary::Mul, &float(t)?, Scalar::Float(0.5)) };
    // Where min < max, or where a bound is alone; min == max counts apart (no halves there).
    let ordered = match (min, max) {
        (Some(low), Some(high)) => Some((op(Binary::Lt, low, high)?, op(Binary::Le, low, high)?)),
        _ => None,
    };
    let share = |bound: &Tensor, beyond: Binary| -> Result<Tensor, Error> {
        let past = float(op(beyond, x, bound)?)?;
        let tie = op(Binary::Eq, x, bound)?;
        let tie = match &ordered {
            Some((strict, _)) => op(Binary::BitAnd, &tie, strict)?,
            None => tie,
        };
        let share = op(Binary::Add, &past, &half(tie)?)?;
        match &ordered {
            Some((_, le)) => op(Binary::Mul, &share, &float(le.clone())?),
            None => Ok(share),
        }
    };
    let to_low = min.map(|low| share(low, Binary::Lt)).transpose()?;
    let mut to_high = max.map(|high| share(high, Binary::Gt)).transpose()?;
    if let (Some((_, le)), Some(high)) = (&ordered, &to_high) {
        // Where min > max the result is max, whatever the value.
        let crossed = float(op(Binary::Eq, le, Scalar::Bool(false))?)?;
        to_high = Some(op(Binary::Add, high, &crossed)?);
    }
    Ok((to_low, to_high))
}
