//! In-place ops (`add_`, `sub_`, `mul_`, `div_`, `fill_`, `zero_`, `copy_`): they write through the
//! tensor's layout (views see the change), bump the version counter that autograd checks, refuse
//! leaves that require grad, and rebase a non-leaf's history onto the new node.

use crate::autograd::{self, AutogradMeta, Backward, SavedTensor};
use crate::backend::cpu::elementwise::Binary;
use crate::element::Scalar;
use crate::error::Error;
use crate::tensor::Tensor;

use super::elementwise::{Operand, Saved, binary_values, reduce_grad};

impl Tensor {
    /// Checks shared by every in-place op, before anything is written.
    fn check_in_place(&self) -> Result<(), Error> {
        let grad_mode = self.session().is_grad_enabled();
        if grad_mode && self.is_leaf() && self.requires_grad() {
            return Err(Error::InPlaceOnLeaf);
        }
        if grad_mode && self.is_view() && self.requires_grad() {
            return Err(Error::InPlaceOnViewWithGrad);
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

    /// Writes `values` (already of this tensor's shape) into this tensor's elements and counts the
    /// change.
    fn write_values(&self, values: &Tensor) -> Result<(), Error> {
        let row_major = values.read(|cpu| cpu.gather(values.layout(), self.dtype()))?;
        self.write_at(&self.layout().clone(), &row_major)?;
        self.bump_version();
        Ok(())
    }

    /// `self op= other` for the arithmetic ops, with PyTorch's rule that the result type must fit
    /// this tensor's dtype.
    fn arithmetic_(
        &self,
        op: Binary,
        other: Operand,
        name: &'static str,
    ) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let result = binary_values(op, Operand::Tensor(self), other)?;
        if result.shape() != self.shape() {
            return Err(Error::BroadcastInPlace {
                result: result.shape().to_vec(),
                output: self.shape().to_vec(),
            });
        }
        if crate::dtype::promote_types(result.dtype(), self.dtype()) != self.dtype() {
            return Err(Error::InPlaceResultType {
                result: result.dtype(),
                output: self.dtype(),
            });
        }
        let backward = in_place_backward(self, op, other, name)?;
        self.write_values(&result)?;
        self.rebase(backward);
        Ok(self)
    }

    pub fn add_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Add, other.into(), "AddBackward0")
    }

    pub fn sub_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Sub, other.into(), "SubBackward0")
    }

    pub fn mul_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Mul, other.into(), "MulBackward0")
    }

    pub fn div_<'a>(&self, other: impl Into<Operand<'a>>) -> Result<&Tensor, Error> {
        self.arithmetic_(Binary::Div, other.into(), "DivBackward0")
    }

    /// `clamp_(min, max)`: `ClampBackward1` over the values as they were before (kept as a copy,
    /// as PyTorch keeps `original_self`).
    pub fn clamp_(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let clamped = super::unary::clamp_values(self, min, max)?;
        let original = self.session().no_grad(|| self.clone_tensor())?;
        let meta =
            super::unary::clamp_node(self, crate::autograd::SavedTensor::new(&original), min, max);
        self.write_values(&clamped)?;
        self.rebase(Some(meta));
        Ok(self)
    }

    /// `uniform_(from, to)`: fresh values from the device's generator, in place.
    pub fn uniform_(&self, from: f64, to: f64) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let values = Tensor::uniform(
            self.session(),
            self.shape(),
            self.dtype(),
            self.device(),
            from,
            to,
        )?;
        self.write_values(&values)?;
        self.rebase(None);
        Ok(self)
    }

    /// `normal_(mean, std)`, in place.
    pub fn normal_(&self, mean: f64, std: f64) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let values = Tensor::normal(
            self.session(),
            self.shape(),
            self.dtype(),
            self.device(),
            mean,
            std,
        )?;
        self.write_values(&values)?;
        self.rebase(None);
        Ok(self)
    }

    /// `fill_(value)`.
    pub fn fill_(&self, value: Scalar) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let filled = Tensor::full(
            self.session(),
            self.shape(),
            value,
            self.dtype(),
            self.device(),
        )?;
        self.write_values(&filled)?;
        self.rebase(None);
        Ok(self)
    }

    /// `zero_()`.
    pub fn zero_(&self) -> Result<&Tensor, Error> {
        self.fill_(Scalar::Int(0))
    }

    /// `copy_(src)`: `src` broadcast to this tensor's shape, converted to its dtype, copied from
    /// any device.
    pub fn copy_(&self, src: &Tensor) -> Result<&Tensor, Error> {
        self.check_in_place()?;
        let sizes: Vec<i64> = self.shape().iter().map(|&s| s as i64).collect();
        let source = src.expand(&sizes)?;
        self.write_values(&source)?;
        self.rebase(None);
        Ok(self)
    }

    /// After an in-place op under grad mode, the tensor's history is the op's node (or, for ops
    /// that overwrite every value, no history at all).
    fn rebase(&self, backward: Option<AutogradMeta>) {
        if !self.session().is_grad_enabled() || !self.requires_grad() {
            return;
        }
        self.replace_autograd(backward.unwrap_or_default());
    }
}

/// The node an in-place arithmetic op records, built before the values change (its edges point
/// at this tensor's current history).
fn in_place_backward(
    target: &Tensor,
    op: Binary,
    other: Operand,
    name: &'static str,
) -> Result<Option<AutogradMeta>, Error> {
    let other_requires = matches!(other, Operand::Tensor(t) if t.requires_grad());
    let session = target.session();
    if !session.is_grad_enabled() || !(target.requires_grad() || other_requires) {
        return Ok(None);
    }
    let (shape, dtype) = (target.shape().to_vec(), target.dtype());
    let product = matches!(op, Binary::Mul | Binary::Div);
    let factor = product.then(|| Saved::of(other));
    // The other operand's gradient in a product needs this tensor's values from before the write:
    // kept as a copy, as PyTorch keeps `original_self`.
    let original = match product && other_requires {
        true => Some(SavedTensor::new(
            &session.no_grad(|| target.clone_tensor())?,
        )),
        false => None,
    };
    let other_meta = match other {
        Operand::Tensor(t) => Some((t.shape().to_vec(), t.dtype())),
        Operand::Scalar(_) => None,
    };
    let inputs: Vec<&Tensor> = std::iter::once(target)
        .chain(match other {
            Operand::Tensor(t) => Some(t),
            Operand::Scalar(_) => None,
        })
        .collect();
    Ok(Some(autograd::record(&inputs, || {
        Backward::saving(name, move |grad| {
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
                grads.push(
                    for_other
                        .map(|g| reduce_grad(&g, other_shape, *other_dtype))
                        .transpose()?,
                );
            }
            Ok(grads)
        })
    })))
}
