//! `DistributedSampler`: each rank's share of a dataset, padded (or cut, with `drop_last`) to an
//! equal size per rank, reshuffled per epoch from `seed + epoch` so that every rank draws the
//! same permutation (torch/utils/data/distributed.py).

use std::cell::Cell;

use crate::random::Generator;

#[derive(Debug)]
pub struct DistributedSampler {
    pub num_replicas: usize,
    pub rank: usize,
    pub shuffle: bool,
    pub seed: u64,
    pub drop_last: bool,
    epoch: Cell<u64>,
}

impl DistributedSampler {
    pub fn new(
        num_replicas: usize,
        rank: usize,
        shuffle: bool,
        seed: u64,
        drop_last: bool,
    ) -> DistributedSampler {
        DistributedSampler {
            num_replicas: num_replicas.max(1),
            rank,
            shuffle,
            seed,
            drop_last,
            epoch: Cell::new(0),
        }
    }

    /// `set_epoch(epoch)`: without it every epoch repeats the same order.
    pub fn set_epoch(&self, epoch: u64) {
        self.epoch.set(epoch);
    }

    /// `len(sampler)` for a dataset of `n`.
    pub fn num_samples(&self, n: usize) -> usize {
        let r = self.num_replicas;
        if self.drop_last && !n.is_multiple_of(r) {
            n.saturating_sub(r).div_ceil(r)
        } else {
            n.div_ceil(r)
        }
    }

    /// This rank's indices for a dataset of `n`.
    pub fn indices(&self, n: usize) -> Vec<usize> {
        let mut indices: Vec<usize> = if self.shuffle {
            Generator::new(self.seed.wrapping_add(self.epoch.get()))
                .randperm(n)
                .into_iter()
                .map(|i| i as usize)
                .collect()
        } else {
            (0..n).collect()
        };
        let total = self.num_samples(n) * self.num_replicas;
        if self.drop_last || indices.is_empty() {
            indices.truncate(total);
        } else {
            let original = indices.clone();
            while indices.len() < total {
                let missing = total - indices.len();
                indices.extend(original.iter().take(missing));
            }
        }
        indices
            .into_iter()
            .skip(self.rank)
            .step_by(self.num_replicas)
            .collect()
    }
}
