//! `np.random`: NumPy's legacy global `RandomState` on the engine's MT19937, seeded and drawn
//! as NumPy draws (`seed` by `init_genrand`; 53-bit doubles; the polar Box–Muller `randn` that
//! keeps its second value; masked rejection for `randint`, `shuffle`, `permutation` and
//! `choice`), so a seeded cell draws NumPy's very numbers.

use tolab_engine::random::Mt19937;

/// The global `RandomState`.
pub struct RandomState {
    mt: Mt19937,
    gauss: Option<f64>,
}

impl Default for RandomState {
    /// Unseeded, as NumPy is: from the clock.
    fn default() -> Self {
        let nanos = (crate::python::clock::epoch_seconds() * 1e9) as u64;
        RandomState::seeded((nanos ^ (nanos >> 32)) as u32)
    }
}

impl RandomState {
    /// `np.random.seed(seed)`.
    pub fn seeded(seed: u32) -> RandomState {
        RandomState {
            mt: Mt19937::new(u64::from(seed)),
            gauss: None,
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        (u64::from(self.next_u32()) << 32) | u64::from(self.next_u32())
    }

    /// `random_sample()`: 53 random bits in [0, 1).
    pub fn double(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// `legacy_gauss`: the polar method, keeping the second value for the next call.
    pub fn gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.double() - 1.0;
            let x2 = 2.0 * self.double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// A uniform integer in `[0, max]` by masked rejection (`random_interval`, and the
    /// masked bounded draws of the legacy `randint`).
    pub fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        for shift in [1, 2, 4, 8, 16, 32] {
            mask |= mask >> shift;
        }
        if max <= u64::from(u32::MAX) {
            loop {
                let v = u64::from(self.next_u32()) & mask;
                if v <= max {
                    return v;
                }
            }
        }
        loop {
            let v = self.next_u64() & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// `randint(low, high)`: one integer in `[low, high)` (`high > low`).
    pub fn integer(&mut self, low: i64, high: i64) -> i64 {
        let range = (high as i128 - low as i128 - 1) as u64;
        if range == u64::from(u32::MAX) {
            return low.wrapping_add(i64::from(self.next_u32()));
        }
        low.wrapping_add(self.interval(range) as i64)
    }

    /// Fisher–Yates as NumPy's legacy `shuffle` runs it, over `n` items.
    pub fn shuffle_order(&mut self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.interval(i as u64) as usize;
            order.swap(i, j);
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_draws_are_numpys() {
        let mut r = RandomState::seeded(0);
        let drawn: Vec<f64> = (0..3).map(|_| r.double()).collect();
        assert_eq!(
            drawn,
            [0.5488135039273248, 0.7151893663724195, 0.6027633760716439]
        );
        let mut r = RandomState::seeded(0);
        let ints: Vec<i64> = (0..5).map(|_| r.integer(0, 10)).collect();
        assert_eq!(ints, [5, 0, 3, 3, 7]);
    }
}
