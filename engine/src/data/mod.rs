//! `torch.utils.data`: datasets, the default collation of samples into batches, and the
//! DataLoader with PyTorch's sampling order (seeded shuffles draw exactly what PyTorch draws),
//! `drop_last`, `pin_memory` and simulated worker processes.

mod collate;
mod loader;
mod sampler;

pub use collate::default_collate;
pub use loader::{Batches, CollateFn, DataLoader, LoaderOptions};
pub use sampler::DistributedSampler;

use crate::error::Error;
use crate::tensor::Tensor;
use crate::value::Value;

/// A map-style dataset: `len(dataset)` and `dataset[index]`. The cell runtime implements it for
/// learners' own classes; [`TensorDataset`] is built in.
pub trait Dataset {
    fn len(&self) -> Result<usize, Error>;
    fn get(&self, index: usize) -> Result<Value, Error>;

    fn is_empty(&self) -> Result<bool, Error> {
        Ok(self.len()? == 0)
    }
}

/// `TensorDataset(*tensors)`: sample `i` is the tuple of each tensor's row `i`.
#[derive(Debug, Clone)]
pub struct TensorDataset {
    tensors: Vec<Tensor>,
}

impl TensorDataset {
    pub fn new(tensors: Vec<Tensor>) -> Result<TensorDataset, Error> {
        let rows = |t: &Tensor| t.shape().first().copied();
        if let Some(first) = tensors.first()
            && tensors
                .iter()
                .any(|t| rows(t) != rows(first) || t.dim() == 0)
        {
            return Err(Error::TensorDatasetSizes);
        }
        Ok(TensorDataset { tensors })
    }
}

impl Dataset for TensorDataset {
    fn len(&self) -> Result<usize, Error> {
        Ok(self
            .tensors
            .first()
            .and_then(|t| t.shape().first().copied())
            .unwrap_or(0))
    }

    fn get(&self, index: usize) -> Result<Value, Error> {
        if index >= self.len()? {
            return Err(Error::DatasetIndex);
        }
        let row = |t: &Tensor| t.select(0, index as i64).map(Value::Tensor);
        Ok(Value::Tuple(
            self.tensors.iter().map(row).collect::<Result<_, _>>()?,
        ))
    }
}
