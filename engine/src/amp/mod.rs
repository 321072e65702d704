//! `torch.autocast` and `torch.amp.GradScaler`: mixed precision as PyTorch runs it. Inside an
//! autocast region the ops on PyTorch's lists cast their floating-point inputs on that device type
//! (matrix products down to float16/bfloat16, reductions and losses up to float32, each cast a
//! `ToCopyBackward0` in the graph); every other op runs in its inputs' dtype.

mod autocast;
mod grad_scaler;

pub use autocast::{Autocast, CastPolicy, autocast_inputs};
pub use grad_scaler::GradScaler;
