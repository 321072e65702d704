//! In-place ops (`add_`, `sub_`, `mul_`, `div_`, `clamp_`, `fill_`, `zero_`, `copy_`, `uniform_`,
//! `normal_`): they write through the tensor's layout (views see the change), bump the version
//! counter that autograd checks, refuse leaves that require grad (and views of them), and rewrite
//! history: a tensor's own history becomes the op's node; a change made through a view rewrites
//! its base's history as `CopySlices` (the region the view covers takes the op's gradient, the
//! rest passes through) and the view's as `AsStridedBackward0` over it, as PyTorch does.

use std::collections::HashMap;
use std::rc::Rc;

use crate::autograd::{self, AutogradMeta, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::backend::cpu::unary::Unary;
use crate::backend::gpu::Distribution;
use crate::element::Scalar;
use crate::error::{CppDouble, Error, RandomError};
use crate::layout::Layout;
use crate::tensor::Tensor;

use super::elementwise::{Operand, Saved, binary_values, reduce_grad};
use super::indexing::gradient_from_sums;

/// What an in-place op contributes to the graph, prepared before the values change.
struct History {
    /// The op's backward: gradients for the tensor's old values, then for `others`. `None` for ops
    /// that overwrite every value (their old values get no gradient).
    backward: Option<Backward>,
    /// The op's other inputs, `None` for Python numbers.
    others: Vec<Option<Tensor>>,
}

impl History {
    /// The history of an op with no operand but the tensor itself.
    fn alone(backward: Option<Backward>) -> History {
        History {
            backward,
            others: Vec::new(),
        }
    }

    fn overwrite() -> History {
        History::alone(None)
    }
}

impl Tensor {
    /// Checks shared by every in-place op, before anything is written.
    fn check_in_place(&self) -> Result<(), Error> {
        if self.session().is_grad_enabled() {
            if self.is_leaf() && self.requires_grad() {
                return Err(Error::InPlaceOnLeaf);
            }
            if self
                .view_base()
                .is_some_and(|b| b.is_leaf() && b.requires_grad())
            {
                return Err(Error::InPlaceOnViewOfLeaf);
            }
        }
        if self
            .shape()
            .iter()
            .zip(self.stride())
            .any(|(&size, &stride)| size > 1 && stride == 0)
        {
            return Err(Error::InPlaceOverlap);
        }
        Ok(())
    }

    /// PyTorch's rule that an in-place result's type must fit the tensor's dtype.
    fn check_result_type(&self, result: crate::DType) -> Result<(), Error> {
        if !result.can_cast_to(self.dtype()) {
            return Err(Error::InPlaceResultType {
                result,
                output: self.dtype(),
            });
        }
        Ok(())
    }

    /// Whether an in-place change of this tensor is recorded (so its node needs copies made).
    fn tracked(&self) -> bool {
        self.session().is_grad_enabled()
            && (self.requires_grad() || self.view_base().is_some_and(Tensor::requires_grad))
    }

    /// Writes `values` (already of this tensor's shape) into this tensor's elements and counts the
    /// change.
    fn write_values(&self, values: &Tensor) -> Result<(), Error> {
        self.write_view(&self.layout().clone(), values)?;
        self.bump_version();
        Ok(())
    }

    /// Writes `values`, then rewrites the history the op leaves behind.
    fn commit(&self, values: &Tensor, history: History) -> Result<&Tensor, Error> {
        self.write_values(values)?;
        let session = self.session();
        let involved = self.requires_grad()
            || self.view_base().is_some_and(Tensor::requires_grad)
            || history.others.iter().flatten().any(Tensor::requires_grad);
        if !session.is_grad_enabled() || !involved {
            return Ok(self);
        }
        match self.view_base() {
            Some(base) => copy_slices(base, self, history)?,
            None => {
                let others: Vec<Option<&Tensor>> =
                    history.others.iter().map(Option::as_ref).collect();
                let inputs: Vec<Option<&Tensor>> =
                    std::iter::once(Some(self)).chain(others).collect();
                let meta = match history.backward {
                    Some(backward) => autograd::record_edges(&inputs, || backward),
                    None => AutogradMeta::default(),
                };
                self.replace_autograd(meta);
            }
        }
        Ok(self)
    }

    /// `self op= alpha * other` for the arithmetic ops (`alpha` is 1 but for `add_` and `sub_`),
    /// with PyTorch's rule that the result type must fit this tensor's dtype.
    fn arithmetic_(
        &self,
        op: Binary,
        other: Operand,
        alpha: Scalar,
        name: &'static str,
    ) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let result = match op {
            Binary::Add | Binary::Sub => {
                super::elementwise::add_scaled_values(op, Operand::Tensor(self), other, alpha)?
            }
            op => binary_values(op, Operand::Tensor(self), other)?,
        };
        if result.shape() != self.shape() {
            return Err(Error::BroadcastInPlace {
                result: result.shape().to_vec(),
                output: self.shape().to_vec(),
            });
        }
        self.check_result_type(result.dtype())?;
        let history = arithmetic_history(self, op, other, alpha, name)?;
        self.commit(&result, history)
    }

    pub fn add_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Add, other.into(), Scalar::Int(1), "AddBackward0")
    }

    /// `add_(other, alpha=a)`: `self += a * other`, one `AddBackward0` as in PyTorch.
    pub fn add_scaled_<'a>(
        &self,
        other: impl Into<Operand<'a>>,
        alpha: Scalar,
    ) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Add, other.into(), alpha, "AddBackward0")
    }

    pub fn sub_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Sub, other.into(), Scalar::Int(1), "SubBackward0")
    }

    /// `sub_(other, alpha=a)`: `self -= a * other`.
    pub fn sub_scaled_<'a>(
        &self,
        other: impl Into<Operand<'a>>,
        alpha: Scalar,
    ) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Sub, other.into(), alpha, "SubBackward0")
    }

    pub fn mul_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Mul, other.into(), Scalar::Int(1), "MulBackward0")
    }

    pub fn div_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Div, other.into(), Scalar::Int(1), "DivBackward0")
    }

    /// `torch.op(..., out=self)`: `result` (the op's value) written into this tensor, which is
    /// returned, with the checks PyTorch makes of an `out=` tensor (its device, whether the
    /// result's dtype casts into it, no autograd). `op` names the function in the error.
    pub fn assign_out(&self, result: &Tensor, op: &'static str) -> Result<&Tensor, Error> {
        if self.session().is_grad_enabled() && (result.requires_grad() || self.requires_grad()) {
            return Err(Error::OutWithGrad { op });
        }
        if self.device() != result.device() {
            return Err(Error::DeviceMismatch {
                first: self.device(),
                second: result.device(),
            });
        }
        self.check_result_type(result.dtype())?;
        if self.shape() != result.shape() {
            return Err(Error::OutResize {
                op,
                out: self.shape().to_vec(),
                result: result.shape().to_vec(),
            });
        }
        self.write_values(&result.to_dtype_if_needed(self.dtype())?)?;
        Ok(self)
    }

    /// `op_()` for an op whose out-of-place form records the node PyTorch's in-place form records
    /// too (`triu_`, `lerp_`, `clamp_` with tensor bounds, …): `op` computes the new values from
    /// this tensor (a copy of it, carrying its history, when autograd follows the change, so that
    /// the node keeps the old values), `others` are the op's other tensor inputs, in the node's
    /// order.
    pub fn in_place(
        &self,
        op: impl FnOnce(&Tensor) -> Result<Tensor, Error>,
        others: Vec<Option<Tensor>>,
    ) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let tracked = self.tracked() || others.iter().flatten().any(Tensor::requires_grad);
        let result = if tracked {
            op(&self.clone_tensor()?)?
        } else {
            self.session().no_grad(|| op(self))?
        };
        if result.shape() != self.shape() {
            return Err(Error::BroadcastInPlace {
                result: result.shape().to_vec(),
                output: self.shape().to_vec(),
            });
        }
        self.check_result_type(result.dtype())?;
        let backward = result.grad_fn().map(|node| {
            let (name, saves) = (node.name(), node.saves_tensors());
            let apply = move |grad: &Tensor| node.apply(grad);
            match saves {
                true => Backward::saving(name, apply),
                false => Backward::new(name, apply),
            }
        });
        let values = result.to_dtype_if_needed(self.dtype())?.detach();
        self.commit(&values, History { backward, others })
    }

    /// `sin_()`, `exp_()`, `floor_()`, … : unary `op` in place, with the op's node over the values as
    /// they were (or as they became, for ops whose backward keeps the result).
    pub fn math_(&self, op: Unary) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let values = super::elementwise::unary_values(op, self)?;
        self.check_result_type(values.dtype())?;
        let backward = match self.tracked() {
            true => super::unary::in_place_backward(op, self, &values)?,
            false => None,
        };
        self.commit(&values, History::alone(backward))
    }

    /// `round_(decimals=d)`.
    pub fn round_decimals_(&self, decimals: i64) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let values = super::unary::round_decimals_values(self, decimals)?;
        let backward = Some(super::unary::round_decimals_backward());
        self.commit(&values, History::alone(backward))
    }

    /// `self **= exponent` for a Python number (`pow_`, and `square_`): `PowBackward0` over a copy
    /// of the values as they were.
    pub fn pow_scalar_(&self, exponent: Scalar) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let values = super::elementwise::pow_scalar_values(self, exponent)?;
        self.check_result_type(values.dtype())?;
        let backward = match self.tracked() {
            true => {
                let original = SavedTensor::new(&self.session().no_grad(|| self.clone_tensor())?);
                Some(super::elementwise::pow_scalar_backward(original, exponent))
            }
            false => None,
        };
        self.commit(&values, History::alone(backward))
    }

    /// `clamp_(min, max)`: `ClampBackward1` over the values as they were before (kept as a copy,
    /// as PyTorch keeps `original_self`).
    pub fn clamp_(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<&Tensor, Error> {
        self.clamp_named_("ClampBackward1", min, max)
    }

    /// `clamp_min_(min)` for a number (`ClampMinBackward0`).
    pub fn clamp_min_(&self, min: Scalar) -> Result<&Tensor, Error> {
        self.clamp_named_("ClampMinBackward0", Some(min), None)
    }

    /// `clamp_max_(max)` for a number (`ClampMaxBackward0`).
    pub fn clamp_max_(&self, max: Scalar) -> Result<&Tensor, Error> {
        self.clamp_named_("ClampMaxBackward0", None, Some(max))
    }

    fn clamp_named_(
        &self,
        name: &'static str,
        min: Option<Scalar>,
        max: Option<Scalar>,
    ) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let clamped = super::unary::clamp_values(self, min, max)?;
        if !clamped.dtype().can_cast_to(self.dtype()) {
            return Err(Error::ClampResultType {
                result: clamped.dtype(),
                output: self.dtype(),
            });
        }
        let original = SavedTensor::new(&self.session().no_grad(|| self.clone_tensor())?);
        let backward = super::unary::clamp_backward_named(name, original, min, max);
        self.commit(&clamped, History::alone(Some(backward)))
    }

    /// `uniform_(from, to)`: fresh values from the device's generator, in place.
    pub fn uniform_(&self, from: f64, to: f64) -> Result<&Tensor, Error> {
        if !self.dtype().is_floating_point() {
            return Err(Error::KernelNotForDtype {
                kernel: "check_uniform_bounds".into(),
                dtype: self.dtype(),
            });
        }
        if from > to {
            return Err(RandomError::UniformRange {
                from: CppDouble(from),
                to: CppDouble(to),
            }
            .into());
        }
        self.check_in_place()?;
        let values = self.drawn_in_memory_order(|shape| {
            Tensor::uniform(self.session(), shape, self.dtype(), self.device(), from, to)
        })?;
        self.commit(&values, History::overwrite())
    }

    /// `normal_(mean, std)`, in place.
    pub fn normal_(&self, mean: f64, std: f64) -> Result<&Tensor, Error> {
        if std < 0.0 {
            return Err(RandomError::NormalStd {
                std: CppDouble(std),
            }
            .into());
        }
        self.check_in_place()?;
        let contiguous = self.is_contiguous();
        let values = self.drawn_in_memory_order(|shape| {
            Tensor::normal_drawn(
                self.session(),
                shape,
                self.dtype(),
                self.device(),
                contiguous,
                mean,
                std,
            )
        })?;
        self.commit(&values, History::overwrite())
    }

    /// `bernoulli_(p)`, in place: each element 1 with probability `p`, else 0.
    pub fn bernoulli_(&self, p: f64) -> Result<&Tensor, Error> {
        if !(0.0..=1.0).contains(&p) {
            return Err(RandomError::BernoulliP { p: CppDouble(p) }.into());
        }
        self.check_in_place()?;
        let (session, dtype, device) = (self.session(), self.dtype(), self.device());
        let values = self.drawn_in_memory_order(|shape| {
            let on_gpu = Distribution::Bernoulli { p: p as f32 };
            if let Some(drawn) = super::gpu::random(session, shape, dtype, device, on_gpu) {
                return drawn;
            }
            let target = session.resolve(device)?;
            Tensor::generated(session, shape, dtype, device, "bernoulli", |n| {
                session.with_generator(target, |g| g.bernoulli(dtype, n, p))
            })
        })?;
        self.commit(&values, History::overwrite())
    }

    /// Overwrites every element with what `draw` makes for a contiguous tensor of the shape it
    /// is given, in PyTorch's visiting order (see [`Tensor::memory_order`]); `node` names the
    /// node left behind, whose gradient is zero (`ExponentialBackward0`).
    pub(super) fn fill_drawn_(
        &self,
        node: &'static str,
        draw: impl FnOnce(&[usize]) -> Result<Tensor, Error>,
    ) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let values = self.drawn_in_memory_order(draw)?;
        let backward = Backward::new(node, |grad| {
            Ok(vec![Some(super::binary::zeros_like(grad)?)])
        });
        self.commit(&values, History::alone(Some(backward)))
    }

    /// The dimensions in the order PyTorch's TensorIterator visits this tensor's elements, from
    /// the largest stride to the smallest; `None` when that is the plain row-major order.
    pub(super) fn memory_order(&self) -> Option<Vec<usize>> {
        if self.is_contiguous() {
            return None;
        }
        let mut order: Vec<usize> = (0..self.dim()).collect();
        order.sort_by_key(|&d| std::cmp::Reverse(self.stride()[d]));
        Some(order)
    }

    /// Random values for this tensor, drawn in the order PyTorch's TensorIterator visits its
    /// elements: memory order, so that a seeded fill of a transposed or sliced tensor puts each
    /// value where PyTorch does.
    fn drawn_in_memory_order(
        &self,
        draw: impl FnOnce(&[usize]) -> Result<Tensor, Error>,
    ) -> Result<Tensor, Error> {
        // A meta tensor has no values to draw: the fill is only its checks, and the
        // generator is left untouched, as PyTorch's meta kernels leave it.
        if self.device().kind == crate::DeviceType::Meta {
            return self.full_like(Scalar::Int(0));
        }
        let Some(order) = self.memory_order() else {
            return draw(self.shape());
        };
        let shape: Vec<usize> = order.iter().map(|&d| self.shape()[d]).collect();
        let mut inverse = vec![0i64; order.len()];
        for (position, &d) in order.iter().enumerate() {
            inverse[d] = position as i64;
        }
        draw(&shape)?.permute(&inverse)
    }

    /// `fill_(value)` (also what `t[i] = 5` does).
    pub fn fill_(&self, value: Scalar) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let dtype = self.dtype();
        dtype.check_scalar(value)?;
        let filled = Tensor::full(
            self.session(),
            self.shape(),
            value,
            self.dtype(),
            self.device(),
        )?;
        self.commit(&filled, History::overwrite())
    }

    /// `zero_()`.
    pub fn zero_(&self) -> Result<&Tensor, Error> {
        self.fill_(Scalar::Int(0))
    }

    /// `copy_(src)` (also what `t[i] = other_tensor` does): `src` broadcast to this tensor's shape,
    /// converted to its dtype, copied from any device; the gradient flows to `src`.
    pub fn copy_(&self, src: &Tensor) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let sizes: Vec<i64> = self.shape().iter().map(|&s| s as i64).collect();
        let source = src.expand(&sizes)?;
        let (shape, dtype, device) = (src.shape().to_vec(), src.dtype(), src.device());
        let backward = Backward::new("CopyBackwards", move |grad| {
            let to_source = reduce_grad(grad, &shape, dtype)?;
            let to_source = if to_source.device() == device {
                to_source
            } else {
                to_source.to(crate::To {
                    device: Some(crate::Target::Device(device)),
                    ..crate::To::default()
                })?
            };
            Ok(vec![None, Some(to_source)])
        });
        self.commit(
            &source,
            History {
                backward: Some(backward),
                others: vec![Some(src.clone())],
            },
        )
    }
}

/// The backward of an in-place arithmetic op, prepared before the values change (a product keeps
/// a copy of the old values when its other operand needs a gradient).
fn arithmetic_history(
    target: &Tensor,
    op: Binary,
    other: Operand,
    alpha: Scalar,
    name: &'static str,
) -> Result<History, Error> {
    let other_requires = matches!(other, Operand::Tensor(t) if t.requires_grad());
    let session = target.session();
    let (shape, dtype) = (target.shape().to_vec(), target.dtype());
    let product = matches!(op, Binary::Mul | Binary::Div);
    let factor = product.then(|| Saved::of(other));
    // The other operand's gradient in a product needs this tensor's values from before the write:
    // kept as a copy, as PyTorch keeps `original_self`.
    let original = match product && other_requires && session.is_grad_enabled() {
        true => Some(SavedTensor::new(
            &session.no_grad(|| target.clone_tensor())?,
        )),
        false => None,
    };
    let other_meta = match other {
        Operand::Tensor(t) => Some((t.shape().to_vec(), t.dtype())),
        Operand::Scalar(_) => None,
    };
    let backward = Backward::saving(name, move |grad| {
        let own = match &factor {
            Some(factor) => binary_values(op, grad.into(), factor.operand()?)?,
            None => grad.clone(),
        };
        let mut grads = vec![Some(reduce_grad(&own, &shape, dtype)?)];
        if let Some((other_shape, other_dtype)) = &other_meta {
            let for_other = match (op, &original, &factor) {
                (Binary::Sub, _, _) => Some(grad.neg()?),
                (Binary::Mul, Some(original), _) => Some(binary_values(
                    Binary::Mul,
                    grad.into(),
                    original.unpack()?.into(),
                )?),
                (Binary::Div, Some(original), Some(factor)) => {
                    // d(a / b)/db = -a / b²
                    let b = factor.operand()?;
                    let b2 = binary_values(Binary::Mul, b, b)?;
                    let ratio =
                        binary_values(Binary::Div, original.unpack()?.into(), (&b2).into())?;
                    Some(binary_values(Binary::Mul, grad.into(), (&ratio).into())?.neg()?)
                }
                (Binary::Mul | Binary::Div, _, _) => None,
                _ => Some(grad.clone()),
            };
            let for_other = match (for_other, alpha) {
                (Some(g), Scalar::Int(1)) => Some(g),
                (Some(g), alpha) => Some(binary_values(
                    Binary::Mul,
                    (&g).into(),
                    Operand::Scalar(alpha),
                )?),
                (None, _) => None,
            };
            grads.push(
                for_other
                    .map(|g| reduce_grad(&g, other_shape, *other_dtype))
                    .transpose()?,
            );
        }
        Ok(grads)
    });
    let others = vec![match other {
        Operand::Tensor(t) => Some(t.clone()),
        Operand::Scalar(_) => None,
    }];
    Ok(History {
        backward: Some(backward),
        others,
    })
}

/// Rewrites history after an in-place change made through `view` of `base`.
fn copy_slices(base: &Tensor, view: &Tensor, history: History) -> Result<(), Error> {
    let region = Region::of(base, view);
    let others: Vec<Option<&Tensor>> = history.others.iter().map(Option::as_ref).collect();
    let inputs: Vec<Option<&Tensor>> = std::iter::once(Some(base)).chain(others).collect();
    let inner = history.backward;
    let view_shape = view.shape().to_vec();
    let base_meta = autograd::record_edges(&inputs, || {
        Backward::saving("CopySlices", move |grad| {
            // The base's gradient passes through, except where the view was overwritten: there
            // the in-place op's own backward decides.
            let grad_view = region.pick(grad, &view_shape)?;
            let mut inner_grads = match &inner {
                Some(backward) => (backward.apply)(&grad_view)?,
                None => vec![None],
            };
            let own = match inner_grads.first().cloned().flatten() {
                Some(g) => g,
                None => Tensor::full(
                    grad.session(),
                    &view_shape,
                    Scalar::Int(0),
                    grad.dtype(),
                    grad.device(),
                )?,
            };
            inner_grads[0] = Some(region.place(grad.clone_tensor()?, &own)?);
            Ok(inner_grads)
        })
    });
    base.replace_autograd(base_meta);
    view.replace_autograd(view_history(base, view));
    Ok(())
}

/// Where a view's elements sit in its base, counted in the base's row-major order: a strided
/// layout where the base is contiguous (kernels read and write through it on a GPU), else the
/// positions one by one (on the host).
#[derive(Debug, Clone)]
enum Region {
    Strided(Layout),
    Positions(Vec<usize>),
}

impl Region {
    fn of(base: &Tensor, view: &Tensor) -> Region {
        if base.is_contiguous() && view.storage_offset() >= base.storage_offset() {
            return Region::Strided(Layout {
                shape: view.shape().to_vec(),
                strides: view.stride().to_vec(),
                offset: view.storage_offset() - base.storage_offset(),
            });
        }
        let position_of: HashMap<usize, usize> = base
            .layout()
            .indices()
            .enumerate()
            .map(|(k, s)| (s, k))
            .collect();
        Region::Positions(
            view.layout()
                .indices()
                .filter_map(|s| position_of.get(&s).copied())
                .collect(),
        )
    }

    /// The view's elements of `grad` (shaped as the base).
    fn pick(&self, grad: &Tensor, view_shape: &[usize]) -> Result<Tensor, Error> {
        match self {
            Region::Strided(layout) => {
                let dense = grad.contiguous()?;
                let within = Layout {
                    offset: layout.offset + dense.storage_offset(),
                    ..layout.clone()
                };
                Ok(Tensor::from_storage(
                    Rc::clone(dense.storage()),
                    within,
                    AutogradMeta::default(),
                ))
            }
            Region::Positions(positions) => {
                let values = grad.kernel_scalars()?;
                let picked: Vec<Scalar> = positions.iter().map(|&p| values[p]).collect();
                Tensor::from_values(
                    grad.session(),
                    &picked,
                    view_shape,
                    grad.dtype(),
                    grad.device(),
                    "copy_slices",
                )
            }
        }
    }

    /// `into` (a fresh contiguous tensor shaped as the base) with the view's elements replaced by
    /// `values`.
    fn place(&self, into: Tensor, values: &Tensor) -> Result<Tensor, Error> {
        match self {
            Region::Strided(layout) => {
                into.write_view(layout, values)?;
                Ok(into)
            }
            Region::Positions(positions) => {
                let mut all: Vec<f64> = into
                    .kernel_scalars()?
                    .into_iter()
                    .map(Scalar::as_f64)
                    .collect();
                for (&p, v) in positions.iter().zip(values.kernel_scalars()?) {
                    all[p] = v.as_f64();
                }
                gradient_from_sums(&into, all, into.shape())
            }
        }
    }
}

/// A view's history read through its base's: `AsStridedBackward0`, which places the view's
/// gradient where the view sits in the base.
pub(crate) fn view_history(base: &Tensor, view: &Tensor) -> AutogradMeta {
    let region = Region::of(base, view);
    let base_shape = base.shape().to_vec();
    autograd::record(&[base], || {
        Backward::new("AsStridedBackward0", move |grad| {
            let zeros = Tensor::full(
                grad.session(),
                &base_shape,
                Scalar::Int(0),
                grad.dtype(),
                grad.device(),
            )?;
            Ok(vec![Some(region.place(zeros, grad)?)])
        })
    })
}
