//! A CPU generator's state as `torch.get_rng_state()` gives it and `set_rng_state` takes it:
//! the 5056 bytes of ATen's `CPUGeneratorImplState` (aten/src/ATen/CPUGeneratorImpl.cpp), laid
//! out as x86-64 and ARM64 compilers lay out that struct, so a state saved by a learner's
//! PyTorch loads here and the other way round.

use super::{Generator, Mt19937, N};

/// `sizeof(CPUGeneratorImplState)`.
pub const STATE_SIZE: usize = 5056;

// Offsets of the fields of `CPUGeneratorImplStateLegacy` and of the two after it.
const SEED: usize = 0;
const LEFT: usize = 8;
const SEEDED: usize = 12;
const NEXT: usize = 16;
const WORDS: usize = 24;
const NORMAL_Y: usize = WORDS + 8 * N + 8;
const NORMAL_IS_VALID: usize = NORMAL_Y + 16;

/// Why a state could not be loaded, in PyTorch's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateError {
    /// The tensor is not 5056 bytes long.
    Size(usize),
    /// The Mersenne Twister's fields are out of range.
    Invalid,
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StateError::Size(found) => write!(
                f,
                "Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input RNG state size to be {found}"
            ),
            StateError::Invalid => write!(f, "Invalid mt19937 state"),
        }
    }
}

impl Generator {
    /// `get_state()`: seed, Mersenne Twister position and words, and the cached normal value.
    pub fn get_state(&self) -> Vec<u8> {
        let mut bytes = vec![0u8; STATE_SIZE];
        let mut put = |at: usize, field: &[u8]| bytes[at..at + field.len()].copy_from_slice(field);
        put(SEED, &self.seed.to_le_bytes());
        let (left, next) = self.engine.torch_position();
        put(LEFT, &(left as i32).to_le_bytes());
        put(SEEDED, &1i32.to_le_bytes());
        put(NEXT, &(next as u64).to_le_bytes());
        for (i, word) in self.engine.state.iter().enumerate() {
            put(WORDS + 8 * i, &u64::from(*word).to_le_bytes());
        }
        if let Some(cached) = self.next_double_normal {
            put(NORMAL_Y, &cached.to_le_bytes());
            put(NORMAL_IS_VALID, &1i32.to_le_bytes());
        }
        bytes
    }

    /// `set_state(bytes)`. The GPU draw counter is not part of a CPU state and is kept.
    pub fn set_state(&mut self, bytes: &[u8]) -> Result<(), StateError> {
        if bytes.len() != STATE_SIZE {
            return Err(StateError::Size(bytes.len()));
        }
        let u64_at =
            |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
        let i32_at =
            |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or_default());
        let (left, next) = (i32_at(LEFT), u64_at(NEXT));
        // mt19937's `is_valid`: seeded, 1 <= left <= 624, next <= 624.
        if i32_at(SEEDED) == 0 || !(1..=N as i32).contains(&left) || next > N as u64 {
            return Err(StateError::Invalid);
        }
        // Each word is stored as 64 bits; the engine keeps the low 32, as ATen's does.
        let words: Vec<u32> = (0..N).map(|i| u64_at(WORDS + 8 * i) as u32).collect();
        self.engine = Mt19937::from_torch(&words, left as usize, next as usize);
        self.seed = u64_at(SEED);
        self.next_double_normal = (i32_at(NORMAL_IS_VALID) != 0).then(|| {
            f64::from_le_bytes(bytes[NORMAL_Y..NORMAL_Y + 8].try_into().unwrap_or_default())
        });
        Ok(())
    }
}

impl Mt19937 {
    /// ATen's `left_` and `next_`: a draw decrements `left` (regenerating the words when it
    /// reaches 0) and reads word `next`.
    fn torch_position(&self) -> (usize, usize) {
        if self.index >= N && !self.regenerated {
            (1, 0)
        } else {
            (N - self.index + 1, self.index)
        }
    }

    /// The engine at ATen's `left_` and `next_`.
    fn from_torch(words: &[u32], left: usize, next: usize) -> Mt19937 {
        let mut state = [0u32; N];
        state.copy_from_slice(words);
        Mt19937 {
            state,
            index: if left == 1 { N } else { next },
            regenerated: !(left == 1 && next == 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes torch 2.15 gives after `manual_seed(0)` and `randn(3)`: seed 0, left 617, seeded,
    /// next 8, and the cached second value of the last Box–Muller pair.
    #[test]
    fn a_saved_state_records_the_position_and_the_cached_normal_as_pytorch_does() {
        let mut g = Generator::new(0);
        g.normal(crate::dtype::DType::Float32, 3, true, 0.0, 1.0);
        let bytes = g.get_state();
        assert_eq!(bytes.len(), STATE_SIZE);
        assert_eq!(
            &bytes[..24],
            &[
                0, 0, 0, 0, 0, 0, 0, 0, 105, 2, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0
            ]
        );
        assert_eq!(
            &bytes[NORMAL_Y..NORMAL_Y + 8],
            &[13, 53, 62, 202, 150, 48, 226, 63]
        );
        assert_eq!(bytes[NORMAL_IS_VALID], 1);
        let mut restored = Generator::new(5);
        restored.set_state(&bytes).unwrap();
        assert_eq!(restored.get_state(), bytes);
        assert_eq!(restored.uniform_f64(0.0, 1.0), g.uniform_f64(0.0, 1.0));
    }

    #[test]
    fn a_fresh_seed_and_a_used_up_block_save_as_pytorch_tells_them_apart() {
        let fresh = Generator::new(0).get_state();
        assert_eq!(
            &fresh[8..24],
            &[1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        let mut used = Generator::new(0);
        (0..N).for_each(|_| {
            used.random();
        });
        assert_eq!(
            &used.get_state()[8..24],
            &[1, 0, 0, 0, 1, 0, 0, 0, 112, 2, 0, 0, 0, 0, 0, 0]
        );
    }

    #[test]
    fn a_state_of_the_wrong_size_or_out_of_range_is_refused_in_pytorchs_words() {
        let mut g = Generator::new(0);
        assert_eq!(
            g.set_state(&[0; 3]).unwrap_err().to_string(),
            "Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 3"
        );
        assert_eq!(g.set_state(&[0; STATE_SIZE]), Err(StateError::Invalid));
    }
}
