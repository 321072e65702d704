//! Sync points: synchronous engine calls that, in the browser, wait for GPU readbacks and run
//! again ([`Interpreter::engine_call`], and [`sync_first!`] on hot paths), and the reads that
//! bring GPU values to the host before Python looks at them.

use ruff_python_ast::Expr;

use super::args::Flow;
use super::interpreter::Interpreter;
use super::value::Value;

/// A synchronous engine call on a hot path: run at once, and only when a read could not wait
/// (in the browser) run again through [`Interpreter::engine_call`], which awaits the readbacks.
macro_rules! sync_first {
    ($self:ident, |$me:ident| $call:expr) => {{
        let mark = $self.session.retry_mark();
        let $me = &mut *$self;
        match $call {
            Err(flow) if $crate::python::sync::would_block(&flow) => {
                $self.session.rewind(mark);
                // Boxed, so that the hot path's future stays small.
                Box::pin($self.engine_call(|$me| $call)).await
            }
            outcome => outcome,
        }
    }};
}
pub(crate) use sync_first;

/// Whether `flow` is a read of GPU memory that could not wait for its readback (in the browser).
pub(crate) fn would_block(flow: &Flow) -> bool {
    matches!(flow, Flow::Error(e) if e.engine.as_deref().is_some_and(tolab_engine::Error::is_would_block))
}

impl Interpreter {
    /// Runs a synchronous call into the engine. In the browser a read of GPU memory whose bytes
    /// are not back yet fails with `WouldBlock` before the call has changed anything (reads come
    /// before writes): the readbacks it asked for are awaited (the browser's sync point) and the
    /// call runs again, the trace rolled back to where it began. Natively reads never fail so.
    ///
    /// A call that reads GPU memory it wrote itself (an op the CPU computes from a result the GPU
    /// made in the same call) never finds its bytes back in time: after a few rounds its error
    /// stands, and the learner reads it.
    pub(crate) async fn engine_call<T>(
        &mut self,
        mut call: impl FnMut(&mut Self) -> Result<T, Flow>,
    ) -> Result<T, Flow> {
        const ROUNDS: usize = 4;
        let mut round = 1;
        loop {
            let mark = self.session.retry_mark();
            match call(self) {
                Err(flow) if round < ROUNDS && would_block(&flow) => {
                    self.session.rewind(mark);
                    self.session.complete_readbacks().await?;
                    round += 1;
                }
                outcome => return outcome,
            }
        }
    }

    /// Python's truth value of `value` (a one-element tensor's is read from the device).
    pub(crate) async fn truth(&mut self, value: &Value) -> Result<bool, Flow> {
        if let Value::Instance(i) = value {
            for method in ["__bool__", "__len__"] {
                if i.class.lookup(method).is_some() {
                    let answer = self.call_dunder(value, method, Vec::new()).await?;
                    return Ok(answer.truthy());
                }
            }
            if let Some(container) = i.builtin.borrow().clone() {
                return Ok(container.truthy());
            }
        }
        self.fetch_values(value).await?;
        Ok(value.truth()?)
    }

    /// The truth value of the expression `e` (`if`, `while`, `assert`, comprehension filters).
    pub(crate) async fn test(&mut self, e: &Expr) -> Result<bool, Flow> {
        let value = self.expr(e).await?;
        self.truth(&value).await
    }

    /// Brings the values of every GPU tensor in `value` back to the host before something
    /// synchronous prints or tests them (in the browser, the await is the sync point).
    pub(crate) async fn fetch_values(&mut self, value: &Value) -> Result<(), Flow> {
        let holds_tensors = matches!(
            value,
            Value::Tensor(_)
                | Value::Parameter(_)
                | Value::List(_)
                | Value::Tuple(_)
                | Value::Dict(_)
                | Value::Set(_)
                | Value::StructSeq(_)
        );
        if !holds_tensors {
            return Ok(());
        }
        for tensor in super::builtins::tensors_in(value) {
            tensor.fetch().await?;
        }
        Ok(())
    }
}
