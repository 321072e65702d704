//! `nn.Parameter`: a leaf tensor a module owns. Its identity outlives its data: `module.to()`
//! replaces the data of the same Parameter object (as PyTorch's `Module._apply` sets
//! `param.data`), so optimizers and learner variables holding it see the move.

use std::cell::RefCell;
use std::rc::Rc;

use crate::error::Error;
use crate::tensor::Tensor;

#[derive(Debug, Clone)]
pub struct Parameter(Rc<RefCell<Tensor>>);

impl Parameter {
    /// `nn.Parameter(data, requires_grad=True)`: a leaf sharing `data`'s storage.
    pub fn new(data: &Tensor, requires_grad: bool) -> Result<Parameter, Error> {
        let leaf = data.detach();
        leaf.set_requires_grad(requires_grad)?;
        Ok(Parameter(Rc::new(RefCell::new(leaf))))
    }

    /// The handle an optimizer keeps for a tensor handed to it directly: that very tensor (its
    /// in-place updates are the learner's tensor's), which must be a leaf.
    pub fn of_tensor(tensor: &Tensor) -> Result<Parameter, Error> {
        if !tensor.is_leaf() {
            return Err(Error::NonLeafOptimize);
        }
        Ok(Parameter(Rc::new(RefCell::new(tensor.clone()))))
    }

    /// A replica's parameter (`nn.DataParallel`): a copy of the original on another device that
    /// stays in the original's graph, so it is not a leaf.
    pub(crate) fn replica(tensor: Tensor) -> Parameter {
        Parameter(Rc::new(RefCell::new(tensor)))
    }

    /// The tensor the parameter holds now.
    pub fn tensor(&self) -> Tensor {
        self.0.borrow().clone()
    }

    /// Python's `is`.
    pub fn is(&self, other: &Parameter) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// `param.data = data`: the same Parameter over new data, keeping `requires_grad`; `grad` is the
    /// gradient it carries over (moved along with the data by `module.to()`).
    pub(crate) fn set_data(&self, data: &Tensor, grad: Option<Tensor>) -> Result<(), Error> {
        let old = self.tensor();
        let leaf = data.detach();
        leaf.set_requires_grad(old.requires_grad())?;
        leaf.set_grad(grad);
        *self.0.borrow_mut() = leaf;
        Ok(())
    }

    /// `repr(param)`: `Parameter containing:` over the tensor's repr.
    pub fn repr(&self) -> Result<String, Error> {
        Ok(format!("Parameter containing:\n{}", self.tensor().repr()?))
    }
}
