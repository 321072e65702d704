//! What the benchmarks share: timing that one noisy moment on a shared machine cannot decide.

use std::time::Instant;

/// The median of `repetitions` timed runs of `run`, after one untimed warm-up run.
pub fn median_seconds(repetitions: usize, mut run: impl FnMut()) -> f64 {
    run();
    let mut times: Vec<f64> = (0..repetitions)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
